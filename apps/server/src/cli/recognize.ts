/**
 * `wcs recognize <file>... [--session] [--json]`: the songs of the library heard in audio files,
 * from the recognition index (the fingerprints of `wcs library import`), each file heard as the
 * server hears a recording of it (services/recognition/recognition-signal.ts: 30 s chunks, the
 * songs tracked across them, the same plays). Benchmarks drive it, so
 * its JSON shape is fixed: one line per file {"file", "plays": [{song_id, title, artist, start_s,
 * end_s, confidence}]}; with --session the files are consecutive chunks of one recording and one
 * line carries the merged timeline ("file" is the first file, "files" all of them). A file that
 * cannot be decoded gets a line with "error" instead of "plays"; the command then exits 1.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';

interface RecognizeOptions extends DataDirOptions {
  session?: boolean;
  json?: boolean;
  minConfidence?: string;
}

interface PlayLine {
  song_id: number;
  title: string;
  artist: string;
  start_s: number;
  end_s: number;
  confidence: number;
}

async function recognizeCommand(files: string[], options: RecognizeOptions): Promise<void> {
  const [
    { loadConfig },
    { consoleLog, prepareDatabase },
    { createDatabase },
    { fileChunks, recognizeChunks },
  ] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
    import('../services/recognition/recognition-signal.js'),
  ]);
  const minConfidence = options.minConfidence === undefined ? undefined : Number(options.minConfidence);
  if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence <= 1)) {
    throw new Error('--min-confidence must be a number from 0 to 1');
  }
  const config = loadConfig(process.env, overridesFrom(options));
  const log = options.json ? () => {} : consoleLog(config);
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  try {
    database = await prepareDatabase(config, log);
  } catch (error) {
    if ((error as Error).name !== 'DataDirInUseError') throw error;
    throw new Error(
      `${(error as Error).message}\nThe running server holds this data folder; stop it to recognise from the command ` +
        'line, or point DATABASE_URL at a hosted PostgreSQL both can share.',
    );
  }
  const { pool, db } = createDatabase(database.connectionString, 2);
  let failed = 0;
  try {
    const describe = async (plays: Awaited<ReturnType<typeof recognizeChunks>>): Promise<PlayLine[]> => {
      const ids = [...new Set(plays.map((play) => play.songId))];
      const { rows } = await pool.query<{ id: number; title: string; artist: string }>(
        'select id, title, artist from songs where id = any($1::int[])',
        [ids],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return plays.map((play) => ({
        song_id: play.songId,
        title: byId.get(play.songId)?.title ?? '',
        artist: byId.get(play.songId)?.artist ?? '',
        start_s: play.startS,
        end_s: play.endS,
        confidence: play.confidence,
      }));
    };
    const print = (line: Record<string, unknown>) => {
      if (options.json) {
        console.log(JSON.stringify(line));
        return;
      }
      const name = Array.isArray(line.files)
        ? `${line.files.length} chunks from ${line.file}`
        : String(line.file);
      if (line.error) {
        console.error(`${name}: ${line.error}`);
        return;
      }
      const plays = line.plays as PlayLine[];
      if (plays.length === 0) console.log(`${name}: nothing from the library heard`);
      else console.log(`${name}:`);
      for (const play of plays) {
        console.log(
          `  ${clock(play.start_s)}-${clock(play.end_s)}  ${play.artist} - ${play.title}  (confidence ${play.confidence})`,
        );
      }
    };
    const recognize = async (list: string[]) =>
      describe(await recognizeChunks(db, fileChunks(list, config.ffmpegPath), { minConfidence }));
    const absolute = files.map((file) => path.resolve(file));
    if (options.session) {
      try {
        print({ file: files[0], files, plays: await recognize(absolute) });
      } catch (error) {
        failed++;
        print({ file: files[0], files, error: (error as Error).message });
      }
    } else {
      for (const [index, file] of files.entries()) {
        try {
          print({ file, plays: await recognize([absolute[index]!]) });
        } catch (error) {
          failed++;
          print({ file, error: (error as Error).message });
        }
      }
    }
  } finally {
    await pool.end();
    await database.close();
  }
  if (failed > 0) process.exitCode = 1;
}

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

export function registerRecognizeCommand(program: Command): void {
  program
    .command('recognize')
    .description(
      'the songs of the library heard in audio files (a room recording, an excerpt), with start and end times: ' +
        'the plays the server would find in a recording of them (30 s chunks, songs tracked across them)',
    )
    .argument('<files...>', 'audio files (any format ffmpeg reads)')
    .option(
      '--session',
      'the files are consecutive chunks of one recording (as a recorder uploads them): print one merged timeline ' +
        '("file" is the first file, "files" lists them all)',
    )
    .option(
      '--json',
      'one JSON line per file: {"file", "plays": [{"song_id", "title", "artist", "start_s", "end_s", "confidence"}]}',
    )
    .option(
      '--min-confidence <0-1>',
      'report only plays at least this confident (default 0.5, the calibrated threshold)',
    )
    .addOption(dataDirOption())
    .action(recognizeCommand);
}
