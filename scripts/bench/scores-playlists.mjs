#!/usr/bin/env node
// Scores, downloads and playlists benchmark: a scratch embedded PostgreSQL (durable, fsync on)
// with a generated library, then the time of a full score recompute (first run, and a rerun that
// changes nothing), of the download preview and enqueue, and of a full playlist regeneration
// with its M3U8 files.
// Usage: node scripts/bench/scores-playlists.mjs [--songs 20000] [--plays 300000]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const arg = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const songCount = arg('--songs', 20_000);
const playCount = arg('--plays', 300_000);

execFileSync(
  process.execPath,
  [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server'],
  {
    cwd: repoRoot,
    stdio: 'inherit',
  },
);
const dist = (module) => import(path.join(repoRoot, 'apps/server/dist', module));
const { startEmbeddedPostgres } = await dist('db/embedded.js');
const { runMigrations } = await dist('db/migrate.js');
const { createDatabase } = await dist('db/client.js');
const { recomputeScores } = await dist('services/scores.js');
const { getDownloadPreview, enqueueDownloadCandidates } = await dist('services/downloads.js');
const { regenerateAllPlaylists } = await dist('services/playlists.js');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-scores-'));
fs.chmodSync(work, 0o755); // as root, PostgreSQL runs as the postgres user
const postgres = await startEmbeddedPostgres({ dataDir: path.join(work, 'data') });
const rows = [];
const time = async (name, action) => {
  const started = performance.now();
  const result = await action();
  rows.push([name, performance.now() - started]);
  return result;
};
try {
  await runMigrations(postgres.connectionString);
  const { pool, db } = createDatabase(postgres.connectionString);
  // One in three songs has no file; analysed songs have a file. Plays lean towards low song ids
  // (random() × random()), so a few songs are played a lot, as in a real library.
  await time('generate library', async () => {
    await pool.query(`insert into settings (id) values (1) on conflict do nothing`);
    await pool.query(`insert into events (name, start_date, end_date, timezone, is_festival)
      select 'Event ' || g, date '2025-01-01', date '2025-01-03', 'UTC', g % 5 = 0 from generate_series(1, 100) g`);
    await pool.query(
      `insert into songs (title, artist, search_key, genre, release_date, bpm, energy_level, file_present, file_path,
         analyzed_at, duration_ms, file_size_bytes, analysis_duration_ms)
       select 'Song ' || g, 'Artist ' || (g % 2000), 'song ' || g,
         (array['Acoustic','Hip-Hop/R&B','Pop','Contemporary','Blues/Jazz'])[1 + g % 5],
         current_date - (g % 3000), 80 + (g * 7) % 60, (g * 37) % 1000, g % 3 <> 0,
         case when g % 3 <> 0 then '/music/' || g || '.mp3' end, case when g % 3 <> 0 then now() end,
         180000 + g % 120000, case when g % 3 <> 0 then 8000000 end, case when g % 3 <> 0 then 4000 end
       from generate_series(1, $1::int) g`,
      [songCount],
    );
    await pool.query(
      `insert into plays (song_id, event_id, started_at, time_window, source)
       select 1 + floor(random() * random() * $1::int)::int, 1 + floor(random() * 100)::int,
         now() - random() * interval '1000 days',
         (array['20-22','22-00','00-02','02-04','04-06'])[1 + floor(random() * 5)::int], 'demo'
       from generate_series(1, $2::int)`,
      [songCount, playCount],
    );
    await pool.query('analyze');
  });
  const first = await time('score recompute, first run', () => recomputeScores(db));
  const again = await time('score recompute, nothing changed', () => recomputeScores(db));
  await pool.query(`update settings set party_weight = 2`);
  const changed = await time('score recompute after party_weight 1 -> 2', () => recomputeScores(db));
  const preview = await time('download preview', () => getDownloadPreview(db, { downloadPriceUsd: 0 }));
  const enqueued = await time('download enqueue (first)', () =>
    enqueueDownloadCandidates(db, { minimum_plays_to_download: 3, download_priority_threshold: 50 }),
  );
  const playlistsDir = path.join(work, 'playlists');
  const regenerated = await time('playlist regeneration (first)', () =>
    regenerateAllPlaylists(db, { playlistsDir }),
  );
  await time('playlist regeneration (again)', () => regenerateAllPlaylists(db, { playlistsDir }));
  const [{ songs: exposed }] = (
    await pool.query(`select count(*)::int as songs from songs where exposure > 0`)
  ).rows;
  await pool.end();

  console.log(`library: ${songCount} songs, ${playCount} plays, 100 events (1 in 5 a festival)`);
  console.log(
    `rows written: first recompute ${first.songsUpdated}, rerun ${again.songsUpdated}, after the weight change ${changed.songsUpdated}; songs with exposure > 0: ${exposed}`,
  );
  console.log(
    `download candidates: ${preview.total_candidates} (${enqueued.inserted} queued); playlists: ${regenerated.active} active`,
  );
  console.log('| step | ms |\n|---|---|');
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(0)} |`);
} finally {
  await postgres.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
