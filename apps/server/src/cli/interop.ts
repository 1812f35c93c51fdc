import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DJ_EXPORT_FORMATS,
  DJ_IMPORT_FORMATS,
  type DjExportFormat,
  type DjImportFormat,
  InteropOptions,
  type InteropResult,
  type PathMapping,
} from '@wcs/contract';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';

/**
 * `wcs import` and `wcs export`: a DJ program's library and history into the product, and songs
 * back out (docs/interop.md). Both work whether or not a server runs on the data folder: beside a
 * running server they use the PostgreSQL it started, and its job worker then runs the score
 * recompute this import asks for.
 */

interface ImportCliOptions extends DataDirOptions {
  format?: DjImportFormat;
  event?: number;
  map: PathMapping[];
  timeZone?: string;
  sessions?: number[];
  createEvents: boolean;
  newSongs: 'all' | 'history' | 'none';
  nightStart?: string;
  dryRun?: boolean;
  json?: boolean;
}

interface ExportCliOptions extends DataDirOptions {
  playlist?: number;
  event?: number;
  out: string;
  map: PathMapping[];
}

function parseMapping(value: string, previous: PathMapping[] = []): PathMapping[] {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) {
    throw new InvalidArgumentError('write it as FROM=TO, e.g. --map "C:/Music/=/srv/music/".');
  }
  return [...previous, { from: value.slice(0, at), to: value.slice(at + 1) }];
}

function parseId(value: string): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647)
    throw new InvalidArgumentError('must be an id (a positive whole number).');
  return id;
}

function parseSessions(value: string): number[] {
  const list = value.split(',').map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new InvalidArgumentError('give session numbers from the preview, separated by commas (e.g. 0,2).');
  }
  return list;
}

/** Opens the data folder's database (beside a running server or not), runs `work`, closes. */
async function withDatabase<T>(
  options: DataDirOptions,
  quiet: boolean,
  work: (context: {
    db: import('../db/client.js').Db;
    config: import('../config.js').Config;
    connectionString: string;
    pool: import('pg').Pool;
  }) => Promise<T>,
): Promise<T> {
  const [{ loadConfig }, { attachDatabase }, { createDatabase }] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
  ]);
  const config = loadConfig(process.env, overridesFrom(options));
  // Progress of the embedded PostgreSQL goes to stderr: stdout carries the command's answer.
  const database = await attachDatabase(
    config,
    quiet ? () => {} : (message) => console.error(`[wcs] ${message}`),
  );
  const { pool, db } = createDatabase(database.connectionString, 2);
  try {
    return await work({ db, pool, config, connectionString: database.connectionString });
  } finally {
    await pool.end();
    await database.close();
  }
}

function resultText(result: InteropResult, seconds: string): string {
  const verb = result.dry_run ? 'would add' : 'added';
  const lines = [
    `${result.format}: ${result.tracks} tracks, ${result.playlists} playlists, ${result.history_sessions} history sessions (${seconds} s).`,
    `Tracks: ${result.match_counts.path} matched by path, ${result.match_counts.content_hash} by content, ` +
      `${result.match_counts.name} by name, ${result.match_counts.fingerprint} by fingerprint; ${result.new_songs} new songs without a file${result.dry_run ? ' (would be made)' : ''}, ` +
      `${result.match_counts.unmatched} left unmatched. BPM filled on ${result.bpm_filled} songs, key on ${result.key_filled}.`,
    `Plays: ${verb} ${result.plays}; skipped ${result.plays_skipped.already_imported} imported before, ` +
      `${result.plays_skipped.already_held} already held, ${result.plays_skipped.no_event} without an event, ` +
      `${result.plays_skipped.no_time} without a time, ${result.plays_skipped.no_song} without a song.`,
  ];
  for (const session of result.sessions) {
    const when = session.started_at ?? session.date ?? 'no date';
    const where = session.event_name
      ? `${session.new_event ? 'new event' : 'event'} "${session.event_name}"${session.event_id ? ` (${session.event_id})` : ''}`
      : 'no event';
    lines.push(
      `  [${session.index}] ${session.name} (${when}${session.estimated_times ? ', estimated times' : ''}): ` +
        `${session.entries} entries, ${session.plays} plays → ${where}${session.skipped_reason ? `; ${session.skipped_reason}` : ''}`,
    );
  }
  for (const event of result.events_created)
    lines.push(`Created event ${event.event_id}: ${event.event_name}`);
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  if (result.dry_run) lines.push('Nothing was stored (--dry-run).');
  return lines.join('\n');
}

/** `wcs import <file or folder>`: any path the user names (the API keeps to the library roots). */
async function importCommand(target: string, options: ImportCliOptions): Promise<void> {
  const startedAt = performance.now();
  const parsed = InteropOptions.safeParse({
    format: options.format,
    time_zone: options.timeZone,
    path_mappings: options.map,
    sessions: options.sessions,
    event_id: options.event,
    create_events: options.createEvents,
    new_songs: options.newSongs,
    night_start: options.nightStart,
  });
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  }
  const [{ runInterop }, { createJobQueue }, { scheduleScoreRecompute }, { AppError }] = await Promise.all([
    import('../services/interop/interop.js'),
    import('../jobs/queue.js'),
    import('../services/recompute-schedule.js'),
    import('../services/errors.js'),
  ]);
  const result = await withDatabase(
    options,
    Boolean(options.json),
    async ({ db, config, connectionString }) => {
      let outcome: InteropResult;
      try {
        outcome = await runInterop(
          { db, config },
          { kind: 'local', path: path.resolve(target) },
          parsed.data,
          Boolean(options.dryRun),
        );
      } catch (error) {
        // The service speaks HTTP statuses; here only its message matters.
        if (error instanceof AppError) throw new Error(error.message);
        throw error;
      }
      if (
        !outcome.dry_run &&
        outcome.plays + outcome.new_songs + outcome.bpm_filled + outcome.key_filled > 0
      ) {
        // The server's worker runs the recompute (now if it is running, else when it next starts).
        const jobs = await createJobQueue({ connectionString });
        try {
          await scheduleScoreRecompute(jobs, 'DJ software import');
        } finally {
          await jobs.stop();
        }
      }
      return outcome;
    },
  );
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  if (options.json) {
    const { track_matches: _tracks, sessions: _sessions, files: _files, ...counts } = result;
    console.log(JSON.stringify(counts));
  } else {
    console.log(resultText(result, seconds));
  }
}

/**
 * `wcs export <format> --out FILE`: a playlist, an event's played songs or the whole library, as a
 * DJ program's file. Written while it is read from the database, as the server sends it
 * (services/interop/export.ts, streamSongs: memory stays at two batches of rows whatever the
 * library's size), into a hidden file beside FILE that replaces it only once complete: a failed or
 * interrupted export leaves FILE as it was.
 */
async function exportCommand(format: DjExportFormat, options: ExportCliOptions): Promise<void> {
  const [{ streamSongs }, { AppError }] = await Promise.all([
    import('../services/interop/export.js'),
    import('../services/errors.js'),
  ]);
  const out = path.resolve(options.out);
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.partial`);
  const size = await withDatabase(options, false, async ({ db, pool }) => {
    let file: Awaited<ReturnType<typeof streamSongs>>;
    try {
      file = await streamSongs({ db, pool }, format, {
        ...(options.playlist !== undefined ? { playlistId: options.playlist } : {}),
        ...(options.event !== undefined ? { eventId: options.event } : {}),
        mappings: options.map,
      });
    } catch (error) {
      if (error instanceof AppError) throw new Error(error.message);
      throw error;
    }
    try {
      const handle = await fs.open(partial, 'wx');
      try {
        for await (const chunk of file.stream) await handle.write(chunk as Buffer);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const { size: written } = await fs.stat(partial);
      await fs.rename(partial, out);
      return written;
    } catch (error) {
      file.stream.destroy();
      await fs.rm(partial, { force: true });
      throw error;
    }
  });
  console.log(`Wrote ${out} (${format}, ${size} bytes).`);
}

export function registerInteropCommands(program: Command): void {
  program
    .command('import')
    .description(
      "import a DJ program's library and history (rekordbox XML, Traktor NML, VirtualDJ, Serato, Engine DJ, Mixxx, M3U, CSV): " +
        'tracks are matched to songs (path, content, name), unmatched ones become songs without a file, history becomes plays',
    )
    .argument(
      '<file-or-folder>',
      "the program's file, or a folder holding its files (e.g. Engine Library/Database2)",
    )
    .addOption(
      new Option('--format <format>', 'the format, when the name and content do not say it').choices(
        DJ_IMPORT_FORMATS,
      ),
    )
    .option(
      '--event <id>',
      'put every session into this event (default: the event holding its night, else a new one)',
      parseId,
    )
    .option(
      '--map <from=to>',
      "a path prefix of the DJ's computer and where those files are here (repeatable)",
      parseMapping,
      [],
    )
    .option(
      '--time-zone <zone>',
      "IANA zone of the DJ's computer, for files with wall-clock times (default: the event's, else this machine's)",
    )
    .option(
      '--sessions <list>',
      'only these history sessions, by their number in the preview (e.g. 0,2)',
      parseSessions,
    )
    .option('--no-create-events', 'skip sessions outside every event instead of creating an event for them')
    .addOption(
      new Option('--new-songs <which>', 'unmatched tracks that become songs without a file')
        .choices(['all', 'history', 'none'])
        .default('all'),
    )
    .option(
      '--night-start <HH:MM>',
      "start of nights whose file keeps no times (default: the event's usual start, else 21:00)",
    )
    .option('--dry-run', 'read and match, say what would be added, store nothing')
    .option(
      '--json',
      'print one line of JSON: format, tracks, matched, new_songs, playlists, history_sessions, plays, ...',
    )
    .addOption(dataDirOption())
    .action(importCommand);

  program
    .command('export')
    .description(
      "write a generated playlist, or the whole library with its analysed BPM and key, as a DJ program's file",
    )
    .addArgument(
      new Argument(
        '<format>',
        'rekordbox-xml, traktor-nml, serato-crate, virtualdj-m3u, m3u8 or csv',
      ).choices(DJ_EXPORT_FORMATS),
    )
    .option('--playlist <id>', 'the generated playlist to write (default: the whole library)', parseId)
    .option('--event <id>', 'the songs played at this event, in the order of their first play', parseId)
    .requiredOption('--out <file>', 'where to write the file')
    .option(
      '--map <from=to>',
      'a path prefix on this server and what to write instead, e.g. /srv/music/=C:/Music/ (repeatable)',
      parseMapping,
      [],
    )
    .addOption(dataDirOption())
    .action(exportCommand);
}
