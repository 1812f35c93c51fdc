#!/usr/bin/env node
// Recognition benchmark (issue 5): builds its own test set from real music (Debian game-music
// packages, fetched into .cache/recognition), keeps every 4th track out of the index, indexes the
// rest with `wcs library import`, recognises distorted 10 s queries with `wcs recognize --json`
// (room reverb + EQ + compression + crowd noise at +5/0 dB SNR, speed and tempo ±4/±8%, phone band,
// Opus 128k), then a continuous mixed 'night' with crossfades cut into 30 s Opus chunks with
// `wcs recognize --session --json`, and finally pads the index to --songs songs (time-reversed,
// pitch-moved copies of the real tracks' landmarks, which no query can match) to time recognition
// at that scale in-process. Prints a table; asserts nothing.
//   node scripts/bench/recognition.mjs [--positions 2] [--songs 1000] [--night-songs 40] [--keep]
//                                      [--skip-queries] [--skip-night] [--skip-scale]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ensureNodeModules, ensureSystemPackages, repoRoot, runMain } from '../ensure.mjs';
import {
  addNoise,
  convolve,
  ffmpegToPcm,
  RATE,
  ROOM,
  rng,
  roomImpulse,
  writeWav,
} from './recognition/audio.mjs';
import { buildTracks, splitTracks } from './recognition/corpus.mjs';
import { fillerSong } from './recognition/fillers.mjs';

const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const ffprobe = 'ffprobe';
const cacheDir = path.join(repoRoot, '.cache/recognition');
const wcs = path.join(repoRoot, 'apps/server/bin/wcs.js');

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}
const positions = option('--positions', 2);
const targetSongs = option('--songs', 1000);
const nightSongs = option('--night-songs', 40);
const keep = process.argv.includes('--keep');
// Parts can be left out to re-measure one (e.g. --skip-queries --skip-scale for the night only).
const skipQueries = process.argv.includes('--skip-queries');
const skipNight = process.argv.includes('--skip-night');
const skipScale = process.argv.includes('--skip-scale');

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const uptime = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Runs the wcs CLI under /usr/bin/time; returns stdout, wall seconds and peak RSS (MB). */
function runWcs(args, env) {
  const timeFile = path.join(os.tmpdir(), `wcs-bench-time-${process.pid}`);
  const started = performance.now();
  // Exit status 1 means some files could not be read: their lines say why, the others count.
  const child = spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, wcs, ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0 && child.status !== 1)
    throw new Error(`wcs ${args[0]} failed (status ${child.status})`);
  const stdout = child.stdout;
  const seconds = (performance.now() - started) / 1000;
  const rssMb = Number(fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024;
  fs.rmSync(timeFile, { force: true });
  return { stdout: String(stdout), seconds, rssMb };
}

// ---------------------------------------------------------------------------------------------
// Query conditions: ffmpeg filters on the excerpt, then optional noise, then optional codec.

/** Confidence thresholds the queries are scored at (scores 40, 30 and 24 of the matcher; 0.5 = 30 is the default). */
const THRESHOLDS = [0.6, 0.5, 0.43];

const SPEEDS = [0.92, 0.96, 1.04, 1.08];
const signed = (f) => `${f > 1 ? '+' : ''}${Math.round((f - 1) * 100)}%`;
// PA = ROOM, the EQ + compression chain of recognition/audio.mjs; crowd = modulated pink noise
// at the SNR given; room = reverberation (RT60 0.9 s) with the direct sound 6 dB over the reverb
// (near the speakers) or equal to it (across the hall).
const CONDITIONS = [
  { name: 'clean', filter: null },
  { name: 'opus 128k', filter: null, opus: true },
  {
    name: 'phone band + compression',
    filter: 'highpass=f=300,lowpass=f=3400,acompressor=threshold=0.05:ratio=8:makeup=3',
  },
  { name: 'PA, crowd +5 dB', filter: ROOM, snr: 5 },
  { name: 'PA, crowd 0 dB', filter: ROOM, snr: 0 },
  { name: 'room near (DRR +6 dB), PA, crowd +5 dB', filter: ROOM, room: 'near', snr: 5 },
  { name: 'room far (DRR 0 dB), PA, crowd +5 dB', filter: ROOM, room: 'far', snr: 5 },
  ...SPEEDS.map((f) => ({ name: `speed ${signed(f)}, PA, crowd +10 dB`, filter: ROOM, snr: 10, speed: f })),
  ...SPEEDS.map((f) => ({ name: `tempo ${signed(f)}, PA, crowd +10 dB`, filter: ROOM, snr: 10, tempo: f })),
];

/** Reverb (convolution with the room's impulse response), then the PA/phone chain of ffmpeg filters. */
function inRoom(samples, ir, filter, scratch) {
  writeWav(scratch, convolve(samples, ir));
  const out = ffmpegToPcm(ffmpeg, ['-i', scratch, '-af', filter]);
  fs.rmSync(scratch);
  return out;
}

function makeQuery(track, start, condition, file, seed, irs) {
  const factor = condition.speed ?? condition.tempo ?? 1;
  const chain = [`aresample=${RATE}`];
  if (condition.speed) chain.push(`asetrate=${Math.round(RATE * condition.speed)}`, `aresample=${RATE}`);
  if (condition.tempo) chain.push(`atempo=${condition.tempo}`);
  if (condition.filter && !condition.room) chain.push(condition.filter);
  let samples = ffmpegToPcm(ffmpeg, [
    '-ss',
    String(start),
    '-t',
    String(10 * factor + 0.05),
    '-i',
    track.file,
    '-af',
    chain.join(','),
  ]).subarray(0, 10 * RATE);
  if (condition.room) samples = inRoom(samples, irs[condition.room], condition.filter, `${file}.dry.wav`);
  if (condition.snr !== undefined) samples = addNoise(samples, condition.snr, seed);
  if (!condition.opus) {
    writeWav(file, samples);
    return file;
  }
  const wav = `${file}.src.wav`;
  writeWav(wav, samples);
  const opus = file.replace(/\.wav$/, '.opus');
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '128k', opus]);
  fs.rmSync(wav);
  return opus;
}

// ---------------------------------------------------------------------------------------------

const median = (values) => quantile(values, 0.5);
function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

runMain(async () => {
  ensureNodeModules();
  ensureSystemPackages(['ffmpeg']);
  ensureBuilt();
  const dist = (file) => import(pathToFileURL(path.join(repoRoot, 'apps/server/dist', file)).href);
  const { tracks, inIndex, outOfIndex } = splitTracks(buildTracks(cacheDir, { ffmpeg, ffprobe, log }));
  const hours = (list) => list.reduce((sum, t) => sum + t.duration, 0) / 3600;
  log(
    `${tracks.length} tracks: ${inIndex.length} indexed (${hours(inIndex).toFixed(2)} h), ${outOfIndex.length} kept out`,
  );

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-recognition-'));
  fs.chmodSync(work, 0o755);
  const dataDir = path.join(work, 'data');
  const library = path.join(work, 'library');
  fs.mkdirSync(library);
  for (const track of inIndex) fs.copyFileSync(track.file, path.join(library, `${track.id}.mp3`));
  const report = [];
  const say = (line = '') => {
    report.push(line);
    console.log(line);
  };
  say(`# Recognition benchmark (${new Date().toISOString()}, load ${uptime()}, ${os.cpus().length} cores)`);
  say();

  // 1. Index with the CLI.
  log('wcs library import');
  const imported = runWcs(['library', 'import', library, '--json', '--data-dir', dataDir]);
  const summary = JSON.parse(imported.stdout);
  say(
    `Indexing (wcs library import, tags + content hash + fingerprints): ${inIndex.length} tracks, ` +
      `${hours(inIndex).toFixed(2)} h in ${imported.seconds.toFixed(1)} s = ${((hours(inIndex) * 3600) / imported.seconds).toFixed(0)}x real time ` +
      `(including ~2 s of embedded PostgreSQL start), peak RSS ${imported.rssMb.toFixed(0)} MB, ${summary.failed.length} failed`,
  );
  for (const failure of summary.failed) say(`  failed: ${failure.file}: ${failure.reason}`);

  // Song ids by file.
  const { loadConfig } = await dist('config.js');
  const { prepareDatabase } = await dist('main.js');
  const { createDatabase } = await dist('db/client.js');
  const openDb = async () => {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }, { dataDir });
    const prepared = await prepareDatabase(config, () => {});
    const { pool, db } = createDatabase(prepared.connectionString, 4);
    return {
      pool,
      db,
      close: async () => {
        await pool.end();
        await prepared.close();
      },
    };
  };
  const songIdOf = new Map();
  {
    const database = await openDb();
    const { rows } = await database.pool.query('select id, file_path from songs');
    for (const row of rows) songIdOf.set(path.basename(row.file_path, '.mp3'), row.id);
    await database.close();
  }

  // 2. Distorted 10 s queries.
  const irs = { near: roomImpulse(null, 7, { drrDb: 6 }), far: roomImpulse(null, 7, { drrDb: 0 }) };
  const queriesDir = path.join(work, 'queries');
  fs.mkdirSync(queriesDir);
  const random = rng(42);
  const starts = new Map(
    tracks.map((track) => [
      track.id,
      Array.from({ length: positions }, () => 3 + random() * Math.max(0, track.duration - 3 - 11 * 1.08)),
    ]),
  );
  say();
  say(
    `10 s queries: ${positions} per track; "correct" over the indexed tracks' queries, "wrong" = another song on top, ` +
      '"false" = any play on a query of a track not in the index; at each confidence threshold (0.5 is the default).',
  );
  say();
  say(
    `| condition | ${THRESHOLDS.map((t) => `confidence ≥ ${t}`).join(' | ')} | s per query (CLI, incl. decode) |`,
  );
  say(`|---|${THRESHOLDS.map(() => '---|').join('')}---|`);
  const rows = [];
  for (const [c, condition] of (skipQueries ? [] : CONDITIONS).entries()) {
    log(`queries: ${condition.name}`);
    const dir = path.join(queriesDir, String(c));
    fs.mkdirSync(dir);
    const queries = [];
    for (const track of tracks) {
      for (const [p, start] of starts.get(track.id).entries()) {
        const file = makeQuery(
          track,
          start,
          condition,
          path.join(dir, `${track.id}-${p}.wav`),
          c * 1000 + p,
          irs,
        );
        queries.push({ file, truth: songIdOf.get(track.id) ?? null });
      }
    }
    const result = runWcs([
      'recognize',
      '--json',
      '--min-confidence',
      String(Math.min(...THRESHOLDS)),
      '--data-dir',
      dataDir,
      ...queries.map((q) => q.file),
    ]);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const cells = [];
    for (const threshold of THRESHOLDS) {
      let correct = 0;
      let wrong = 0;
      let falsePositives = 0;
      let known = 0;
      let unknown = 0;
      for (const [i, query] of queries.entries()) {
        if (lines[i].error && threshold === THRESHOLDS[0]) log(`query ${query.file}: ${lines[i].error}`);
        const plays = (lines[i].plays ?? []).filter((p) => p.confidence >= threshold);
        const top = [...plays].sort((x, y) => y.confidence - x.confidence)[0];
        if (query.truth === null) {
          unknown++;
          if (plays.length > 0) falsePositives++;
        } else {
          known++;
          if (top && top.song_id === query.truth) correct++;
          else if (top) wrong++;
        }
      }
      cells.push(
        `${pct(correct, known)} (${correct}/${known}), ${wrong} wrong, ${falsePositives}/${unknown} false`,
      );
    }
    const row = `| ${condition.name} | ${cells.join(' | ')} | ${(result.seconds / queries.length).toFixed(3)} |`;
    rows.push(row);
    say(row);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  if (!skipNight) {
    // 3. The night: a continuous mix with crossfades, some tracks tempo-changed, PA + crowd, as 30 s Opus chunks.
    log('night mix');
    const night = buildNight(tracks, songIdOf, nightSongs, work);
    const chunks = path.join(work, 'chunks');
    fs.mkdirSync(chunks);
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-i',
      night.file,
      '-c:a',
      'libopus',
      '-b:a',
      '128k',
      '-f',
      'segment',
      '-segment_time',
      '30',
      path.join(chunks, 'chunk-%04d.opus'),
    ]);
    const chunkFiles = fs
      .readdirSync(chunks)
      .sort()
      .map((file) => path.join(chunks, file));
    log(`night: ${(night.seconds / 3600).toFixed(2)} h, ${chunkFiles.length} chunks`);
    const nightRun = runWcs(['recognize', '--session', '--json', '--data-dir', dataDir, ...chunkFiles]);
    const predicted = JSON.parse(nightRun.stdout.trim()).plays;
    const evaluation = evaluateNight(night.truth, predicted);
    say();
    say(
      `Night: ${(night.seconds / 3600).toFixed(2)} h, ${night.truth.length} plays (${night.truth.filter((t) => t.songId === null).length} of songs not in the index), ` +
        `6 s crossfades, every 3rd track tempo ±4%, PA chain + crowd noise +5 dB (no reverb), 30 s Opus 128k chunks; ` +
        `wcs recognize --session: ${nightRun.seconds.toFixed(1)} s (${(night.seconds / nightRun.seconds).toFixed(0)}x real time), peak RSS ${nightRun.rssMb.toFixed(0)} MB`,
    );
    say(
      `- plays found: ${evaluation.found}/${evaluation.expected}; false plays: ${evaluation.falsePlays} ` +
        `(${((evaluation.falsePlays / night.seconds) * 36000).toFixed(2)} per 10 h); duplicate plays of one play: ${evaluation.duplicates}`,
    );
    say(
      `- boundary error: start median ${median(evaluation.startErrors).toFixed(1)} s, p90 ${quantile(evaluation.startErrors, 0.9).toFixed(1)} s; ` +
        `end median ${median(evaluation.endErrors).toFixed(1)} s, p90 ${quantile(evaluation.endErrors, 0.9).toFixed(1)} s`,
    );
    for (const miss of evaluation.misses)
      say(`  missed: song ${miss.songId} at ${miss.start.toFixed(0)}-${miss.end.toFixed(0)} s`);
    for (const extra of evaluation.extras) {
      // What was playing then (song id, or "out" for a track not in the index, and its track).
      const during = night.truth
        .filter((t) => t.start < extra.end_s && t.end > extra.start_s)
        .map((t) => `${t.songId ?? 'out'} (${t.trackId}, ${t.start.toFixed(0)}-${t.end.toFixed(0)} s)`)
        .join(', ');
      say(
        `  false play: song ${extra.song_id} at ${extra.start_s}-${extra.end_s} s (confidence ${extra.confidence}), ` +
          `while playing: ${during || 'nothing'}`,
      );
    }
  }

  // 4. Scale: pad the index to targetSongs, then time recognition in-process (one core).
  if (!skipScale) await scaleTest({ dist, openDb, tracks, inIndex, outOfIndex, songIdOf, starts, work, say });

  say();
  say(`load after: ${uptime()}`);
  fs.writeFileSync(path.join(cacheDir, 'last-report.md'), `${report.join('\n')}\n`);
  if (!keep) fs.rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
});

/** Builds the night's mix at RATE and its truth: [{ songId|null, trackId, start, end }] in seconds. */
function buildNight(tracks, songIdOf, count, work) {
  const random = rng(1234);
  const order = [...tracks].sort(() => random() - 0.5).slice(0, count);
  const fade = 6;
  const pieces = [];
  for (const [i, track] of order.entries()) {
    const tempo = i % 3 === 2 ? (i % 2 ? 1.04 : 0.96) : 1;
    const length = Math.min(track.duration, 170);
    const filters = [`aresample=${RATE}`, ...(tempo !== 1 ? [`atempo=${tempo}`] : [])];
    const samples = ffmpegToPcm(ffmpeg, ['-t', String(length), '-i', track.file, '-af', filters.join(',')]);
    pieces.push({ samples, songId: songIdOf.get(track.id) ?? null, trackId: track.id });
  }
  const fadeSamples = fade * RATE;
  let total = 0;
  for (const [i, piece] of pieces.entries()) total += piece.samples.length - (i > 0 ? fadeSamples : 0);
  const mix = new Float32Array(total);
  const truth = [];
  let at = 0;
  for (const [i, piece] of pieces.entries()) {
    const start = i === 0 ? 0 : at - fadeSamples;
    const n = piece.samples.length;
    for (let j = 0; j < n; j++) {
      let gain = 1;
      if (i > 0 && j < fadeSamples) gain = j / fadeSamples;
      if (i < pieces.length - 1 && j >= n - fadeSamples) gain = Math.min(gain, (n - j) / fadeSamples);
      mix[start + j] += gain * piece.samples[j];
    }
    truth.push({
      songId: piece.songId,
      trackId: piece.trackId,
      start: start / RATE,
      end: (start + n) / RATE,
    });
    at = start + n;
  }
  const dry = path.join(work, 'night-dry.wav');
  writeWav(dry, mix);
  const wet = ffmpegToPcm(ffmpeg, ['-i', dry, '-af', ROOM]).subarray(0, mix.length);
  fs.rmSync(dry);
  const noisy = addNoise(wet, 5, 99);
  const file = path.join(work, 'night.wav');
  writeWav(file, noisy);
  return { file, truth, seconds: mix.length / RATE };
}

function evaluateNight(truth, predicted) {
  const overlap = (a0, a1, b0, b1) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  const expectedPlays = truth.filter((t) => t.songId !== null);
  const used = new Set();
  const startErrors = [];
  const endErrors = [];
  const misses = [];
  let found = 0;
  let duplicates = 0;
  for (const play of expectedPlays) {
    const candidates = predicted
      .map((p, index) => ({ p, index, o: overlap(play.start, play.end, p.start_s, p.end_s) }))
      .filter((c) => c.p.song_id === play.songId && c.o > 0)
      .sort((a, b) => b.o - a.o);
    if (candidates.length === 0) {
      misses.push(play);
      continue;
    }
    found++;
    duplicates += candidates.length - 1;
    for (const c of candidates) used.add(c.index);
    startErrors.push(Math.abs(candidates[0].p.start_s - play.start));
    endErrors.push(Math.abs(candidates[0].p.end_s - play.end));
  }
  const extras = predicted.filter((_, index) => !used.has(index));
  return {
    expected: expectedPlays.length,
    found,
    duplicates,
    falsePlays: extras.length,
    extras,
    misses,
    startErrors,
    endErrors,
  };
}

async function scaleTest({ dist, openDb, inIndex, outOfIndex, songIdOf, starts, work, say }) {
  const engine = await dist('audio/fingerprint/index.js');
  const { encodeHashes, encodePeaks, replaceSongFingerprints } = await dist('audio/fingerprint/store.js');
  const { currentIndex } = await dist('audio/fingerprint/memory-index.js');
  const { FRAME_SECONDS } = await dist('audio/fingerprint/params.js');
  const { decodeAudio } = await dist('audio/decode.js');
  const database = await openDb();
  try {
    // The queries and chunks timed at scale, made first: making one forks this process (ffmpeg),
    // and after a fork a process holding the index pays page faults on its next recognitions. The
    // product's own decoding runs ffmpeg from a helper process (audio/spawn-helper.ts), so the
    // timing loop decodes and recognises as the server's recognition job does.
    const queries = [];
    for (const track of [...inIndex, ...outOfIndex]) {
      const start = starts.get(track.id)[0];
      const samples = ffmpegToPcm(ffmpeg, ['-ss', String(start), '-t', '10', '-i', track.file, '-af', ROOM]);
      const file = path.join(work, `scale-query-${track.id}.wav`);
      writeWav(file, addNoise(samples.subarray(0, 10 * RATE), 5, 7));
      queries.push({
        file,
        truth: songIdOf.get(track.id) ?? null,
        name: `${track.origin} at ${start.toFixed(0)} s`,
      });
    }
    const chunks = [];
    for (const track of inIndex.slice(0, 20)) {
      const chunk = path.join(work, `scale-chunk-${track.id}.opus`);
      execFileSync(ffmpeg, [
        '-v',
        'error',
        '-y',
        '-ss',
        '20',
        '-t',
        '30',
        '-i',
        track.file,
        '-ac',
        '1',
        '-c:a',
        'libopus',
        '-b:a',
        '128k',
        chunk,
      ]);
      chunks.push(chunk);
    }
    // Engine-only indexing speed (decode + peaks + hashes + store) on the real tracks, one core.
    let audioSeconds = 0;
    let decodeMs = 0;
    let hashMs = 0;
    let storeMs = 0;
    let hashCount = 0;
    const real = [];
    for (const track of inIndex) {
      let t0 = performance.now();
      const samples = await decodeAudio(track.file, {
        sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: ffmpeg,
      });
      decodeMs += performance.now() - t0;
      t0 = performance.now();
      const indexed = engine.indexSignal(samples);
      const { peaks, hashes } = indexed;
      hashMs += performance.now() - t0;
      t0 = performance.now();
      await replaceSongFingerprints(
        database.db,
        songIdOf.get(track.id),
        hashes,
        peaks,
        engine.FINGERPRINT_VERSION,
      );
      storeMs += performance.now() - t0;
      audioSeconds += samples.length / engine.FINGERPRINT_SAMPLE_RATE;
      hashCount += hashes.count;
      real.push(indexed);
    }
    const totalMs = decodeMs + hashMs + storeMs;
    say();
    say(
      `Engine indexing, in-process: ${(audioSeconds / 3600).toFixed(2)} h at ${((audioSeconds * 1000) / totalMs).toFixed(0)}x real time ` +
        `(decode ${((audioSeconds * 1000) / decodeMs).toFixed(0)}x, peaks+hashes ${((audioSeconds * 1000) / hashMs).toFixed(0)}x, ` +
        `store ${((audioSeconds * 1000) / storeMs).toFixed(0)}x); ${(hashCount / audioSeconds).toFixed(0)} hashes per second of audio`,
    );
    // Pad to targetSongs with unmatchable copies: time-reversed landmarks, log-frequency moved by 6-20 bins.
    const fillers = Math.max(0, targetSongs - inIndex.length);
    log(`adding ${fillers} filler songs`);
    const t0 = performance.now();
    let fillerSeconds = 0;
    // Fillers go in by batches of 25 songs, one insert each (the import path is measured above).
    const BATCH = 25;
    for (let first = 0; first < fillers; first += BATCH) {
      const count = Math.min(BATCH, fillers - first);
      const titles = Array.from({ length: count }, (_, k) => `filler ${first + k}`);
      const { rows } = await database.pool.query(
        `insert into songs (title, artist, search_key, fingerprint_version, fingerprinted_at)
         select title, 'Filler', title, $2, now() from unnest($1::text[]) as u(title) returning id`,
        [titles, engine.FINGERPRINT_VERSION],
      );
      const blobs = [];
      for (let k = 0; k < count; k++) {
        const { peaks, hashes } = fillerSong(real, first + k, engine.referenceHashes);
        blobs.push([rows[k].id, encodeHashes(hashes), encodePeaks(peaks)]);
        fillerSeconds += peaks.frames * FRAME_SECONDS;
      }
      for (const [songId, hashes, peaks] of blobs) {
        await database.pool.query(
          'insert into song_fingerprints (song_id, hashes, peaks) values ($1, $2, $3)',
          [songId, hashes, peaks],
        );
      }
    }
    log(`fillers stored in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await database.pool.query('vacuum analyze song_fingerprints');
    const { rows: sizeRows } = await database.pool.query(
      `select sum(length(hashes))::float8 / 8 as n, pg_total_relation_size('song_fingerprints')::float8 as bytes,
              sum(length(peaks))::float8 as peaks from song_fingerprints`,
    );
    const indexedHours = (audioSeconds + fillerSeconds) / 3600;
    const { n, bytes, peaks } = sizeRows[0];
    say(
      `Index at ${inIndex.length + fillers} songs (${indexedHours.toFixed(1)} h): ${(n / 1e6).toFixed(1)} M hashes, ` +
        `${(bytes / 2 ** 20).toFixed(0)} MB on disk (of which peaks ${(peaks / 2 ** 20).toFixed(0)} MB) = ` +
        `${(bytes / 2 ** 20 / indexedHours).toFixed(1)} MB per hour of audio`,
    );
    // The in-memory index: load time from PostgreSQL and memory, as a process starting with this library.
    const heapBefore = process.memoryUsage().arrayBuffers;
    const t2 = performance.now();
    const index = await currentIndex(database.db);
    const loadMs = performance.now() - t2;
    const memoryMb = (index.entries.byteLength + index.offsets.byteLength) / 2 ** 20;
    say(
      `In-memory index: ${(index.size / 1e6).toFixed(1)} M entries loaded in ${(loadMs / 1000).toFixed(1)} s, ` +
        `${memoryMb.toFixed(0)} MB (${(index.entries.byteLength / 2 ** 20 / indexedHours).toFixed(2)} MB per hour of audio + ${(index.offsets.byteLength / 2 ** 20).toFixed(0)} MB of buckets); ` +
        `array buffers grew by ${((process.memoryUsage().arrayBuffers - heapBefore) / 2 ** 20).toFixed(0)} MB`,
    );
    // As the server does after loading the index: the songs' peaks into the cache, as far as it holds.
    const t3 = performance.now();
    const cachedSongs = await engine.warmPeakCache(database.db, index);
    say(
      `Peak cache (what verification reads): ${cachedSongs} of ${index.revisions.size} songs' peaks read in ${((performance.now() - t3) / 1000).toFixed(1)} s`,
    );
    // Query timing at scale, one query at a time (the server's job runs one chunk at a time too).
    const timings = { recognize: [], engine: [], chunk: [] };
    // The engine alone: the same index, every song's peaks already in memory (no database read).
    const { loadSongPeaks } = await dist('audio/fingerprint/store.js');
    const allPeaks = await loadSongPeaks(database.db, [...index.revisions.keys()]);
    const inMemory = engine.memorySource(index, allPeaks);
    let correct = 0;
    let known = 0;
    let falsePositives = 0;
    let unknown = 0;
    const notes = [];
    for (const [q, { file, truth, name }] of queries.entries()) {
      const pcm = await decodeAudio(file, {
        sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: ffmpeg,
      });
      // The two take turns going first, and only the first run of a query is timed: the second
      // finds the query's index buckets in the processor's cache, as a server's next chunk does not.
      const engineAlone = async () => {
        const t2 = performance.now();
        await engine.recognizeWith(inMemory, pcm);
        if (q % 2 === 1) timings.engine.push(performance.now() - t2);
      };
      if (q % 2 === 1) await engineAlone();
      const t1 = performance.now();
      const plays = await engine.recognizeTimeline(database.db, pcm);
      if (q % 2 === 0) timings.recognize.push(performance.now() - t1);
      if (q % 2 === 0) await engineAlone();
      const top = [...plays].sort((a, b) => b.confidence - a.confidence)[0];
      const heard = top ? `song ${top.songId} (confidence ${top.confidence})` : 'nothing';
      if (truth === null) {
        unknown++;
        if (plays.length) falsePositives++;
        if (plays.length) notes.push(`  false: ${name} (not indexed) heard as ${heard}`);
      } else {
        known++;
        if (top?.songId === truth) correct++;
        else notes.push(`  missed: ${name} (song ${truth}), heard ${heard}`);
      }
    }
    // A 30 s Opus chunk end to end: decode + recognise.
    for (const chunk of chunks) {
      const t1 = performance.now();
      const pcm = await decodeAudio(chunk, {
        sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: ffmpeg,
      });
      await engine.recognizeTimeline(database.db, pcm);
      timings.chunk.push(performance.now() - t1);
    }
    const rec = timings.recognize;
    say(
      `Recognition at ${inIndex.length + fillers} songs, 10 s PA + crowd +5 dB queries (in-process, decode excluded, first run of each query): ` +
        `median ${median(rec).toFixed(0)} ms = ${(10000 / median(rec)).toFixed(0)}x real time, p90 ${quantile(rec, 0.9).toFixed(0)} ms; ` +
        `correct ${pct(correct, known)} (${correct}/${known}), false recognitions ${falsePositives}/${unknown}; ` +
        `the engine alone (peaks in memory, no database read): median ${median(timings.engine).toFixed(0)} ms = ` +
        `${(10000 / median(timings.engine)).toFixed(0)}x real time, p90 ${quantile(timings.engine, 0.9).toFixed(0)} ms`,
    );
    for (const note of notes) say(note);
    say(
      `30 s Opus chunk end to end (decode + recognise): median ${median(timings.chunk).toFixed(0)} ms, p90 ${quantile(timings.chunk, 0.9).toFixed(0)} ms; ` +
        `benchmark process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
  } finally {
    await database.close();
  }
}
