import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase, type Db } from '../db/client.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { runMigrations } from '../db/migrate.js';
import { events, songs } from '../db/schema.js';
import { type NewPlay, recordPlays, timeWindowOf } from '../services/plays.js';
import { songSearchKey } from '../text.js';

/**
 * What the play summary costs writers: `recordPlays` of a batch of plays, the same plays in one
 * INSERT statement, and one DELETE of them,
 * timed with and without the song_window_plays triggers and the plays_song_event_idx index that
 * came with them, on a library that already holds `basePlays` plays (so the summary has its keys
 * and the indexes their size). Variants alternate round by round on the same plays, so a busy
 * machine slows them alike. Run it with `node scripts/bench/song-window-plays.mjs` (it builds
 * first). The cluster keeps fsync on: commits cost what they cost in a real data folder.
 */

export interface SongWindowPlaysBenchOptions {
  /** Plays per timed recordPlays call (default 30,000). */
  plays?: number;
  /** Timed rounds per variant (default 7). */
  rounds?: number;
  /** Plays stored before timing (default 1,000,000). */
  basePlays?: number;
  songs?: number;
  events?: number;
  seed?: number;
}

interface Variant {
  name: string;
  hasTriggers: boolean;
  hasIndex: boolean;
}

export interface VariantResult extends Variant {
  /** recordPlays of the round's plays: what the app's writers pay. */
  recordPlaysMs: number[];
  /** The same plays in one INSERT ... SELECT FROM unnest: the database's share alone. */
  insertMs: number[];
  /** One DELETE of the round's plays by id. */
  deleteMs: number[];
}

const TRIGGERS = [
  'song_window_plays_insert',
  'song_window_plays_delete',
  'song_window_plays_update',
  'song_window_plays_truncate',
];
const ZONES = ['Europe/Berlin', 'America/New_York', 'UTC', 'Australia/Sydney'];

/** mulberry32: a small seeded generator, so every variant of a round stores the same plays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const round1 = (value: number) => Math.round(value * 10) / 10;

async function setTriggers(db: Db, isEnabled: boolean): Promise<void> {
  const action = isEnabled ? 'enable' : 'disable';
  await db.execute(
    sql.raw(`alter table plays ${TRIGGERS.map((name) => `${action} trigger ${name}`).join(', ')}`),
  );
}

async function setIndex(db: Db, isPresent: boolean): Promise<void> {
  await db.execute(
    sql.raw(
      isPresent
        ? 'create index if not exists plays_song_event_idx on plays (song_id, event_id, started_at)'
        : 'drop index if exists plays_song_event_idx',
    ),
  );
}

/** Rows where the summary and a GROUP BY over plays differ (0 when the summary is exact). */
async function summaryMismatches(db: Db): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      (select song_id, time_window, play_count from song_window_plays
       except all
       select song_id, coalesce(time_window, ''), count(*)::int from plays group by 1, 2)
      union all
      (select song_id, coalesce(time_window, ''), count(*)::int from plays group by 1, 2
       except all
       select song_id, time_window, play_count from song_window_plays)
    ) diff`);
  return rows[0]!.n;
}

export async function runSongWindowPlaysBenchmark(
  options: SongWindowPlaysBenchOptions = {},
): Promise<VariantResult[]> {
  const log = (message: string) => console.log(`[bench] ${message}`);
  const playCount = options.plays ?? 30_000;
  const rounds = options.rounds ?? 7;
  const basePlays = options.basePlays ?? 1_000_000;
  const songCount = options.songs ?? 20_000;
  const eventCount = options.events ?? 200;
  const seed = options.seed ?? 1;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-swp-'));
  // As root, PostgreSQL runs as the postgres user, who must get through the folder (mkdtemp: 0700).
  fs.chmodSync(dataDir, 0o755);
  const postgres = await startEmbeddedPostgres({ dataDir, log });
  const { db, pool } = createDatabase(postgres.connectionString, 4);
  try {
    await runMigrations(postgres.connectionString);
    const songIds: number[] = [];
    for (let start = 0; start < songCount; start += 2000) {
      const rows = Array.from({ length: Math.min(2000, songCount - start) }, (_, i) => {
        const title = `Song ${start + i + 1}`;
        return { title, artist: 'Bench Artist', searchKey: songSearchKey(title, 'Bench Artist') };
      });
      songIds.push(...(await db.insert(songs).values(rows).returning({ id: songs.id })).map((row) => row.id));
    }
    const eventIds = (
      await db
        .insert(events)
        .values(
          Array.from({ length: eventCount }, (_, i) => ({
            name: `Bench Event ${i + 1}`,
            startDate: '2025-01-01',
            endDate: '2025-12-31',
            timezone: ZONES[i % ZONES.length]!,
          })),
        )
        .returning({ id: events.id })
    ).map((row) => row.id);
    const zoneOf = new Map(eventIds.map((id, i) => [id, ZONES[i % ZONES.length]!]));

    // The base library in one statement per 250,000 plays (through the insert trigger, which is
    // how the summary gets its rows); windows drawn at random, not computed: only sizes matter.
    let startedAt = performance.now();
    for (let start = 0; start < basePlays; start += 250_000) {
      await pool.query(
        `insert into plays (song_id, event_id, started_at, time_window, source)
         select ($1::int[])[1 + floor(random() * $2)::int], ($3::int[])[1 + floor(random() * $4)::int],
                timestamptz '2025-01-01' + random() * interval '365 days',
                (array['20-22', '22-00', '00-02', '02-04', '04-06', null])[1 + floor(random() * 6)::int],
                'import'
         from generate_series(1, $5)`,
        [songIds, songIds.length, eventIds, eventIds.length, Math.min(250_000, basePlays - start)],
      );
    }
    await pool.query('vacuum analyze');
    log(
      `stored ${songIds.length} songs, ${eventIds.length} events, ${basePlays} base plays ` +
        `(${((performance.now() - startedAt) / 1000).toFixed(1)} s)`,
    );

    // A round's plays fall into nights of about 300 plays each, as imports and recordings bring
    // them (a night is one social that recordPlays creates or reuses), at any hour from 17:00 UTC.
    const playsOfRound = (round: number): NewPlay[] => {
      const next = random(seed * 1000 + round);
      const nights = Array.from({ length: Math.max(1, Math.round(playCount / 300)) }, () => ({
        eventId: eventIds[Math.floor(next() * eventIds.length)]!,
        startMs: Date.UTC(2026, 0, 1, 17) + Math.floor(next() * 365) * 86_400_000,
      }));
      return Array.from({ length: playCount }, () => {
        const night = nights[Math.floor(next() * nights.length)]!;
        return {
          songId: songIds[Math.floor(next() * songIds.length)]!,
          eventId: night.eventId,
          startedAt: new Date(night.startMs + Math.floor(next() * 14 * 3_600_000)),
          source: 'import' as const,
        };
      });
    };

    const results: VariantResult[] = [];
    const variantGroups: Variant[][] = [
      [
        { name: 'before: no triggers, no plays_song_event_idx', hasTriggers: false, hasIndex: false },
        { name: 'triggers only', hasTriggers: true, hasIndex: false },
      ],
      [
        { name: 'plays_song_event_idx only', hasTriggers: false, hasIndex: true },
        { name: 'now: triggers and plays_song_event_idx', hasTriggers: true, hasIndex: true },
      ],
    ];
    for (const group of variantGroups) {
      await setIndex(db, group[0]!.hasIndex);
      const groupResults: VariantResult[] = group.map((variant) => ({
        ...variant,
        recordPlaysMs: [],
        insertMs: [],
        deleteMs: [],
      }));
      // One untimed round first: socials of the nights get created, caches warm.
      for (let round = 0; round <= rounds; round += 1) {
        const newPlays = playsOfRound(round);
        const columns = [
          newPlays.map((play) => play.songId),
          newPlays.map((play) => play.eventId),
          newPlays.map((play) => play.startedAt.toISOString()),
          newPlays.map((play) => timeWindowOf(play.startedAt, zoneOf.get(play.eventId)!)),
        ];
        const order = round % 2 === 0 ? groupResults : [...groupResults].reverse();
        for (const result of order) {
          await setTriggers(db, result.hasTriggers);
          startedAt = performance.now();
          const ids = await recordPlays(db, newPlays);
          const recordPlaysMs = performance.now() - startedAt;
          startedAt = performance.now();
          await pool.query('delete from plays where id = any($1::bigint[])', [ids]);
          const deleteMs = performance.now() - startedAt;
          startedAt = performance.now();
          const inserted = await pool.query<{ id: number }>(
            `insert into plays (song_id, event_id, started_at, time_window, source)
             select s, e, st, w, 'import'
             from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[]) as t(s, e, st, w)
             returning id`,
            columns,
          );
          const insertMs = performance.now() - startedAt;
          await pool.query('delete from plays where id = any($1::bigint[])', [
            inserted.rows.map((row) => row.id),
          ]);
          await setTriggers(db, true);
          if (round > 0) {
            result.recordPlaysMs.push(recordPlaysMs);
            result.insertMs.push(insertMs);
            result.deleteMs.push(deleteMs);
          }
        }
        log(
          `round ${round}${round === 0 ? ' (warm-up)' : ''} of ${group.map((v) => v.name).join(' / ')} done`,
        );
      }
      results.push(...groupResults);
    }

    // The timings only count if the summary stayed exact through all of it.
    const mismatches = await summaryMismatches(db);
    if (mismatches !== 0) throw new Error(`song_window_plays differs from plays in ${mismatches} rows`);

    const baseline = results[0]!;
    console.log(
      `\n${playCount} plays: recordPlays (batches of 5,000), the same plays in one INSERT, one DELETE of ` +
        `them; ${basePlays} plays and ${songIds.length} songs stored; median of ${rounds} rounds. ` +
        'The summary was exact afterwards.\n',
    );
    console.log(
      '| variant | recordPlays ms | vs before | one INSERT ms | vs before | DELETE ms | vs before |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const cell = (values: number[], base: number[]) => {
      const value = median(values);
      const change = Math.round((value / median(base) - 1) * 100);
      return `${round1(value)} | ${change >= 0 ? '+' : ''}${change}%`;
    };
    for (const result of results) {
      console.log(
        `| ${result.name} | ${cell(result.recordPlaysMs, baseline.recordPlaysMs)} | ` +
          `${cell(result.insertMs, baseline.insertMs)} | ${cell(result.deleteMs, baseline.deleteMs)} |`,
      );
    }
    return results;
  } finally {
    await pool.end();
    await postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
