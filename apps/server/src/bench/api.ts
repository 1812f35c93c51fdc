import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { api, type Endpoint } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { FINGERPRINT_SAMPLE_RATE, FINGERPRINT_VERSION, indexSignal } from '../audio/fingerprint/index.js';
import { replaceSongFingerprints } from '../audio/fingerprint/store.js';
import { synthSong } from '../audio/fingerprint/synth.js';
import { demoEnv } from '../cli/demo.js';
import type { Db } from '../db/client.js';
import { plays } from '../db/schema.js';
import { DEMO_SCALE, type DemoScale, planDemoData } from '../demo/generate.js';
import { type ServerHandle, startServer } from '../main.js';
import { createToken } from '../services/accounts/tokens.js';
import { regenerateAllPlaylists } from '../services/playlists/playlists.js';
import { deleteRecording } from '../services/recordings/recordings.js';
import { recomputeScores } from '../services/scores.js';
import { bulkLoadPlan } from './bulk-load.js';
import { startTimedClient } from './timed-client.js';
import {
  SYNTH_SONG_SECONDS,
  UPLOAD_EVENT_NAME,
  type UploadersData,
  type UploadersReport,
} from './uploaders.js';

/**
 * The API benchmark: a community-scale library (20,000 songs, 1,000 events, about 5,000
 * socials, 1,000,000 plays) in a scratch data folder with its own embedded PostgreSQL, the
 * server started in-process, and every GET call of the contract timed over real HTTP.
 * Run it with `node scripts/bench/api.mjs` (it builds first).
 */

/** 980 past events and 20 announced ones; festivals of 5-7 nights make about 5,000 socials. */
export const BENCH_SCALE: DemoScale = {
  ...DEMO_SCALE,
  songs: 20_000,
  events: 980,
  upcomingEvents: 20,
  plays: 1_000_000,
  years: 5,
  festivalShare: 0.82,
  festivalNights: [5, 7],
  unrelatedScrapedEvents: 200,
  recordings: 50,
};

export interface ApiBenchOptions {
  /** Reused when it holds a dataset of the same scale and seed; otherwise made and removed. */
  dataDir?: string;
  /** Keep the scratch data folder (to run again without loading). */
  keep?: boolean;
  /** Timed requests per call, after `warmups` untimed ones. */
  requests?: number;
  warmups?: number;
  /** Multiplies every count of BENCH_SCALE (0.1 for a quick run). */
  scale?: number;
  seed?: number;
  /** Only calls whose name or path contains this text (`/analytics`: the Analytics screens' calls). */
  only?: string;
  /** Devices uploading chunks while the calls are timed (writes under load). */
  uploaders?: number;
  /** Length of each uploaded chunk in seconds (default 10). */
  chunkSeconds?: number;
  /**
   * Each device sends a chunk every `chunkSeconds`, as a recorder does, instead of back to back
   * (default false: back to back, the harder load).
   */
  realtime?: boolean;
  /**
   * Runs the jobs (recognition) in a separate `wcs worker` process on the same database, the
   * server in-process taking HTTP alone, as docs/operations.md lays out a busy server.
   */
  jobProcess?: boolean;
  /**
   * Songs of the dataset given a synthetic song's fingerprints (kept with the dataset), and the
   * uploaders' chunks are those songs through noise: recognition then does a library's work (the
   * dataset's songs alone have no audio, so every chunk is looked up in an empty index).
   */
  indexSongs?: number;
}

export interface CaseResult {
  name: string;
  request: string;
  /** 'ok', 'route missing', 'no data', or the HTTP status with its message. */
  outcome: string;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  /** A download's first byte (the first chunk of its body), p50 and p95; null for other answers. */
  firstByteP50Ms: number | null;
  firstByteP95Ms: number | null;
  bytes: number | null;
}

const DATASET_MARKER = 'bench-dataset.json';

function scaled(factor: number): DemoScale {
  const times = (value: number) => Math.max(1, Math.round(value * factor));
  return {
    ...BENCH_SCALE,
    songs: times(BENCH_SCALE.songs),
    events: times(BENCH_SCALE.events),
    upcomingEvents: times(BENCH_SCALE.upcomingEvents),
    plays: times(BENCH_SCALE.plays),
    unrelatedScrapedEvents: times(BENCH_SCALE.unrelatedScrapedEvents),
    recordings: times(BENCH_SCALE.recordings),
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

interface Ids {
  event: number | null;
  social: number | null;
  song: number | null;
  recording: number | null;
  playlist: number | null;
  scraped: number | null;
  queueEntry: number | null;
  compareEvents: number[];
  compareSocials: number[];
  searchTerm: string;
}

const firstId = async (db: Db, query: ReturnType<typeof sql>): Promise<number | null> => {
  const row = (await db.execute(query)).rows[0] as { id: number } | undefined;
  return row ? Number(row.id) : null;
};

/** Real ids to put into paths: the busiest event, social and song, so the calls do real work. */
async function pickIds(db: Db): Promise<Ids> {
  const topEvents = (
    await db.execute(sql`select event_id as id from plays group by event_id order by count(*) desc limit 3`)
  ).rows.map((row) => Number((row as { id: number }).id));
  const topSocials = (
    await db.execute(
      sql`select social_id as id from plays where social_id is not null group by social_id order by count(*) desc limit 3`,
    )
  ).rows.map((row) => Number((row as { id: number }).id));
  const song = await firstId(
    db,
    sql`select p.song_id as id from plays p
        where exists (select 1 from spotify_popularity_history h where h.song_id = p.song_id)
        group by p.song_id order by count(*) desc limit 1`,
  );
  const artist = song
    ? ((await db.execute(sql`select artist from songs where id = ${song}`)).rows[0] as { artist: string })
        .artist
    : 'a';
  return {
    event: topEvents[0] ?? null,
    social: topSocials[0] ?? null,
    song,
    recording: await firstId(db, sql`select id from recordings order by id limit 1`),
    playlist: await firstId(
      db,
      sql`select id from playlists where is_active order by song_count desc limit 1`,
    ),
    scraped: await firstId(db, sql`select id from scraped_events order by id limit 1`),
    queueEntry: await firstId(db, sql`select id from download_queue order by id limit 1`),
    compareEvents: topEvents,
    compareSocials: topSocials,
    // The artist's last word: a search with a realistic number of hits.
    searchTerm: artist.split(' ').at(-1)!.toLowerCase(),
  };
}

/** The id a path parameter takes, by the path's area; null when the dataset has none. */
function idForPath(endpointPath: string, ids: Ids): number | null | undefined {
  if (!endpointPath.includes(':id')) return undefined;
  if (/^\/(events\/|analytics\/events\/|analytics\/event-success\/)/.test(endpointPath)) return ids.event;
  if (/^\/(songs\/|analytics\/(overplay-trend|song-performance|spotify-popularity)\/)/.test(endpointPath))
    return ids.song;
  if (endpointPath.startsWith('/recordings/')) return ids.recording;
  if (endpointPath.startsWith('/playlists/')) return ids.playlist;
  if (endpointPath.startsWith('/scraper/events/')) return ids.scraped;
  if (endpointPath.startsWith('/downloads/')) return ids.queueEntry;
  return null;
}

const hasQueryKey = (endpoint: Endpoint, key: string) =>
  endpoint.query instanceof z.ZodObject && key in (endpoint.query.shape as Record<string, unknown>);

interface Case {
  name: string;
  request: string;
  /** Why it cannot run (no such data). */
  skip?: string;
}

/** The requests of one GET endpoint: its defaults, plus the event and social filters it offers. */
function casesFor(name: string, endpoint: Endpoint, ids: Ids): Case[] {
  const id = idForPath(endpoint.path, ids);
  if (id === null) return [{ name, request: `GET /api${endpoint.path}`, skip: 'no data' }];
  // The export answers a whole file: CSV of the library is its largest text; the event's list too.
  const base = `/api${endpoint.path.replace(':id', String(id)).replace(':format', 'csv')}`;
  if (name === 'searchSongs') return [{ name, request: `${base}?q=${encodeURIComponent(ids.searchTerm)}` }];
  if (name === 'compare') {
    return [
      { name, request: `${base}?ids=${ids.compareEvents.join(',')}` },
      { name, request: `${base}?ids=${ids.compareSocials.join(',')}&comparison_type=social` },
    ];
  }
  const cases: Case[] = [{ name, request: base }];
  if (hasQueryKey(endpoint, 'event_id') && ids.event)
    cases.push({ name, request: `${base}?event_id=${ids.event}` });
  if (hasQueryKey(endpoint, 'social_id') && ids.social)
    cases.push({ name, request: `${base}?social_id=${ids.social}` });
  if (name === 'listSongs') cases.push({ name, request: `${base}?genre=Pop&age_category=old&has_file=true` });
  if (name === 'exportInterop') {
    // A list and a filtered library in rekordbox XML: its collection in library order, then the
    // list in its own order (services/interop/export.ts).
    const xml = base.replace(/\/csv$/, '/rekordbox-xml');
    cases.push({ name, request: `${xml}?genre=Pop` });
    if (ids.event) cases.push({ name, request: `${xml}?event_id=${ids.event}` });
  }
  return cases;
}

/**
 * `count` devices that upload chunks of `chunkSeconds` (each one decoded, stored and queued for
 * recognition), back to back or one every `chunkSeconds` as a recorder does (`realtime`), as a
 * hall full of recorders would, until stopped; `stop` says how they fared. They run in a worker
 * thread (uploaders.ts), off the server's event loop.
 */
async function startUploaders(
  handle: ServerHandle,
  count: number,
  chunkSeconds: number,
  realtime: boolean,
  songIds: readonly number[],
) {
  const { token } = await createToken(handle.deps.db, { name: 'load benchmark', role: 'dj' }, undefined);
  await removeUploads(handle.deps); // an interrupted run's
  const data: UploadersData = {
    url: handle.url,
    token,
    count,
    chunkSeconds,
    realtime,
    songSeeds: [...songIds],
  };
  const worker = new Worker(new URL('./uploaders.js', import.meta.url), { workerData: { uploaders: data } });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  // Its chunks are made before the first upload and before the calls are timed.
  await Promise.race([once(worker, 'message'), failed]);
  return {
    async stop(): Promise<string> {
      worker.postMessage('stop');
      const [report] = (await Promise.race([once(worker, 'message'), failed])) as [UploadersReport];
      await worker.terminate();
      const sorted = [...report.latencies].sort((a, b) => a - b);
      const refused = report.failures.map(([status, n]) => `${n}x ${status}`).join(', ') || 'none';
      const recognition = await removeUploads(handle.deps);
      return (
        `Uploads under load: ${count} devices, ${sorted.length} chunks of ${chunkSeconds} s ` +
        `(${realtime ? `one every ${chunkSeconds} s per device` : 'back to back'}) in ${report.seconds.toFixed(0)} s ` +
        `(${(sorted.length / report.seconds).toFixed(1)} a second); latency p50 ${round1(percentile(sorted, 50))} ms, ` +
        `p95 ${round1(percentile(sorted, 95))} ms, p99 ${round1(percentile(sorted, 99))} ms, ` +
        `max ${round1(sorted.at(-1) ?? 0)} ms; refused: ${refused}; ${recognition}`
      );
    },
  };
}

/**
 * A `wcs worker` on the benchmark's database and recordings folder, as docs/operations.md
 * ("Several processes") lays out a server for a hall of recorders: the jobs (recognition above all)
 * in a process of their own, the HTTP process taking uploads and reads alone. Resolves once the
 * worker runs its jobs.
 */
async function startJobProcess(handle: ServerHandle, dataDir: string, log: (message: string) => void) {
  const { config, pool } = handle.deps;
  const workerDir = path.join(dataDir, 'job-process');
  fs.mkdirSync(workerDir, { recursive: true });
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../bin/wcs.js', import.meta.url)), 'worker'],
    {
      env: {
        ...demoEnv(process.env),
        LOG_LEVEL: 'warn',
        WCS_DATA_DIR: workerDir,
        DATABASE_URL: (pool.options as { connectionString: string }).connectionString,
        WCS_RECORDINGS_DIR: config.recordingsDir,
        WCS_PLAYLISTS_DIR: config.playlistsDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = once(child, 'exit');
  const ready = new Promise<void>((resolve, reject) => {
    const read = (data: Buffer) => {
      output += data.toString();
      if (/worker is running the background jobs/.test(output)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(([code]) =>
      reject(new Error(`wcs worker exited (${code}) before it ran jobs:\n${output}`)),
    );
  });
  await ready;
  log(`recognition and the other jobs run in a wcs worker of their own (pid ${child.pid})`);
  return {
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * What recognition did with the devices' chunks meanwhile; then removes their recordings (with
 * their plays and files), so a kept dataset stays as it was loaded.
 */
async function removeUploads(deps: ServerHandle['deps']): Promise<string> {
  const rows = await deps.db.execute<{ id: number; chunks: number; recognized: number; plays: number }>(sql`
    select r.id,
      (select count(*) from recording_chunks c where c.recording_id = r.id)::int as chunks,
      (select count(*) from recording_chunks c where c.recording_id = r.id and c.recognized_at is not null)::int as recognized,
      (select count(*) from plays p where p.recording_id = r.id)::int as plays
    from recordings r where r.session_id like 'load-%'`);
  const sum = (key: 'chunks' | 'recognized' | 'plays') =>
    rows.rows.reduce((total, row) => total + row[key], 0);
  const summary = `recognised meanwhile: ${sum('recognized')} of ${sum('chunks')} chunks, ${sum('plays')} plays`;
  for (const row of rows.rows) await deleteRecording(deps, row.id);
  await deps.db.execute(sql`delete from events e where e.name = ${UPLOAD_EVENT_NAME}
    and not exists (select 1 from recordings r where r.event_id = e.id)
    and not exists (select 1 from plays p where p.event_id = e.id)`);
  return summary;
}

/**
 * Gives the first `count` songs of the dataset the fingerprints of a synthetic song (seeded by the
 * song's id) as the server stores them, skipping songs already done by an earlier run on a kept
 * dataset; returns their ids. The server's index loads them at its next recognition.
 */
async function indexSynthSongs(db: Db, count: number, log: (message: string) => void): Promise<number[]> {
  const startedAt = performance.now();
  const rows = await db.execute<{ id: number; version: string | null }>(
    sql`select id, fingerprint_version as version from songs order by id limit ${count}`,
  );
  let added = 0;
  for (const row of rows.rows) {
    if (row.version === FINGERPRINT_VERSION) continue;
    const { peaks, hashes } = indexSignal(synthSong(row.id, SYNTH_SONG_SECONDS, FINGERPRINT_SAMPLE_RATE));
    await replaceSongFingerprints(db, row.id, hashes, peaks, FINGERPRINT_VERSION);
    added += 1;
  }
  log(
    `${rows.rows.length} songs with synthetic fingerprints (${added} added in ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`,
  );
  return rows.rows.map((row) => row.id);
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** A download's first-byte percentiles, or nulls when the answer was no download. */
const firstByteOf = (sorted: readonly number[]) =>
  sorted.length === 0
    ? { firstByteP50Ms: null, firstByteP95Ms: null }
    : { firstByteP50Ms: round1(percentile(sorted, 50)), firstByteP95Ms: round1(percentile(sorted, 95)) };

/** Markdown table of the results. */
export function resultsTable(results: readonly CaseResult[]): string {
  const lines = [
    '| call | request | result | p50 ms | p95 ms | max ms | first byte p50 / p95 ms | bytes |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const cell = (value: number | null) => (value === null ? '' : String(value));
    // Downloads only: the first chunk of the file's body.
    const firstByte = r.firstByteP50Ms === null ? '' : `${r.firstByteP50Ms} / ${r.firstByteP95Ms}`;
    lines.push(
      `| ${r.name} | \`${r.request}\` | ${r.outcome} | ${cell(r.p50Ms)} | ${cell(r.p95Ms)} | ${cell(r.maxMs)} | ${firstByte} | ${cell(r.bytes)} |`,
    );
  }
  return lines.join('\n');
}

export async function runApiBenchmark(options: ApiBenchOptions = {}): Promise<CaseResult[]> {
  const log = (message: string) => console.log(`[bench] ${message}`);
  const requests = options.requests ?? 30;
  const warmups = options.warmups ?? 3;
  const seed = options.seed ?? 1;
  const scale = scaled(options.scale ?? 1);
  const isScratch = options.dataDir === undefined;
  const dataDir = path.resolve(options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-')));
  fs.mkdirSync(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the postgres user, who must get through the folder (mkdtemp: 0700).
  fs.chmodSync(dataDir, 0o755);

  let handle: ServerHandle | undefined;
  let jobProcess: { stop(): Promise<void> } | undefined;
  // The timed requests run from a thread of their own (timed-client.ts), off the server's loop.
  const client = startTimedClient();
  try {
    const startedAt = performance.now();
    handle = await startServer({
      env: { ...demoEnv(process.env), LOG_LEVEL: 'silent' },
      dataDir,
      port: 0,
      host: '127.0.0.1',
      log,
      // With --job-process the recognition runs in a `wcs worker` of its own (startJobProcess).
      jobs: !options.jobProcess,
    });
    const { db, pool, config } = handle.deps;
    // Every call is a viewer's, as the web app's reads are (docs/security.md).
    const { token } = await createToken(db, { name: 'api benchmark', role: 'viewer' }, undefined);
    const markerFile = path.join(dataDir, DATASET_MARKER);
    const wanted = JSON.stringify({ seed, scale });
    const marker = fs.existsSync(markerFile) ? JSON.parse(fs.readFileSync(markerFile, 'utf8')) : null;
    if (marker && JSON.stringify({ seed: marker.seed, scale: marker.scale }) === wanted) {
      log(`reusing the dataset in ${dataDir} (loaded ${marker.loadedAt})`);
    } else {
      if ((await db.$count(plays)) > 0) {
        throw new Error(`${dataDir} already holds another dataset; give an empty --data-dir or none.`);
      }
      let stepAt = performance.now();
      const plan = planDemoData({ seed, now: new Date(), scale });
      log(
        `planned ${plan.songs.length} songs, ${plan.events.length} events, ${plan.nights.length} nights, ` +
          `${plan.plays.count} plays (${((performance.now() - stepAt) / 1000).toFixed(1)} s)`,
      );
      const loaded = await bulkLoadPlan(db, pool, plan, config.libraryRoots[0]!, log);
      stepAt = performance.now();
      const scores = await recomputeScores(db);
      const scoresSeconds = (performance.now() - stepAt) / 1000;
      log(`recomputeScores: ${scores.songsUpdated} songs in ${scoresSeconds.toFixed(1)} s`);
      stepAt = performance.now();
      const playlists = await regenerateAllPlaylists(db, config);
      const playlistSeconds = (performance.now() - stepAt) / 1000;
      log(`regenerateAllPlaylists: ${playlists.message} in ${playlistSeconds.toFixed(1)} s`);
      fs.writeFileSync(
        markerFile,
        `${JSON.stringify(
          {
            seed,
            scale,
            loadedAt: new Date().toISOString(),
            ...loaded,
            recomputeScoresSeconds: round1(scoresSeconds),
            regeneratePlaylistsSeconds: round1(playlistSeconds),
            totalSeconds: round1((performance.now() - startedAt) / 1000),
          },
          null,
          2,
        )}\n`,
      );
      log(`dataset ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    }

    const ids = await pickIds(db);
    const results: CaseResult[] = [];
    const indexed = (options.indexSongs ?? 0) > 0 ? await indexSynthSongs(db, options.indexSongs!, log) : [];
    if (options.jobProcess) jobProcess = await startJobProcess(handle, dataDir, log);
    const load =
      (options.uploaders ?? 0) > 0
        ? await startUploaders(
            handle,
            options.uploaders!,
            options.chunkSeconds ?? 10,
            options.realtime ?? false,
            indexed,
          )
        : undefined;
    const endpoints = Object.entries(api as Record<string, Endpoint>).filter(
      ([name, endpoint]) =>
        endpoint.method === 'GET' &&
        (!options.only || name.includes(options.only) || endpoint.path.includes(options.only)),
    );
    log(`timing ${endpoints.length} GET calls: ${warmups} warm-ups, then ${requests} timed requests each`);
    for (const [name, endpoint] of endpoints) {
      if (!handle.app.hasRoute({ method: 'GET', url: `/api${endpoint.path}` })) {
        results.push({
          name,
          request: `GET /api${endpoint.path}`,
          // A contract call the server does not serve: listed (and counted) rather than timed.
          outcome: 'route missing',
          p50Ms: null,
          p95Ms: null,
          maxMs: null,
          firstByteP50Ms: null,
          firstByteP95Ms: null,
          bytes: null,
        });
        continue;
      }
      for (const testCase of casesFor(name, endpoint, ids)) {
        if (testCase.skip) {
          results.push({
            name,
            request: testCase.request,
            outcome: testCase.skip,
            p50Ms: null,
            p95Ms: null,
            maxMs: null,
            firstByteP50Ms: null,
            firstByteP95Ms: null,
            bytes: null,
          });
          continue;
        }
        const timing = await client.time({
          url: `${handle.url}${testCase.request}`,
          warmups,
          requests,
          token,
        });
        const isOk = timing.status < 400;
        results.push({
          name,
          request: testCase.request,
          outcome: isOk ? 'ok' : `${timing.status} ${timing.message}`.trim(),
          p50Ms: isOk ? round1(percentile(timing.durations, 50)) : null,
          p95Ms: isOk ? round1(percentile(timing.durations, 95)) : null,
          maxMs: isOk ? round1(timing.durations.at(-1)!) : null,
          ...firstByteOf(isOk ? timing.firstBytes : []),
          bytes: timing.bytes,
        });
        const last = results.at(-1)!;
        const firstByte =
          last.firstByteP50Ms === null
            ? ''
            : ` (first byte p50 ${last.firstByteP50Ms} ms, p95 ${last.firstByteP95Ms} ms)`;
        log(
          `${name} ${testCase.request}: ${last.outcome} p50 ${last.p50Ms ?? '-'} ms, p95 ${last.p95Ms ?? '-'} ms${firstByte}`,
        );
      }
    }
    const counts = (
      await db.execute(sql`
      select (select count(*) from songs)::int as songs, (select count(*) from events)::int as events,
             (select count(*) from socials)::int as socials, (select count(*) from plays)::int as plays`)
    ).rows[0];
    console.log(
      `\nDataset: ${JSON.stringify(counts)}; ${requests} timed requests per call after ${warmups} warm-ups.\n`,
    );
    console.log(resultsTable(results));
    if (load) console.log(`\n${await load.stop()}`);
    return results;
  } finally {
    await client.close();
    await jobProcess?.stop();
    await handle?.close();
    if (isScratch && !options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
    else log(`data folder kept: ${dataDir}`);
  }
}
