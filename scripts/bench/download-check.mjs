#!/usr/bin/env node
// The download check's recognition (apps/server/src/services/downloads/matching.ts): a file indexed
// alone, a stretch of a room recording where its song was heard recognised against it. Synthesised
// audio only (the test songs of apps/server/src/test/fakes/songs.ts, run from the TypeScript source
// under tsx; no database).
// 1. Heard or not: the song of services/recognition/recognition-tracking.int.test.ts (150 s, seed 11)
//    played from its start under room noise at --snrs dB (--seeds noise seeds) for 140 s, cut into
//    30 s Opus chunks as a phone uploads them; its play taken to end at each of --ends seconds, the
//    middle --lengths seconds of it (cut from the chunks, as decodeStretch cuts them) recognised
//    against the song's file by the stretch's windows alone (recognizeWith: the check before) and
//    by the server's chunk recognition with its tracking (recognizeStreamWith and heardConfidence: the
//    check now), with the evidence of its tracked hypotheses.
// 2. Time: heardIn of a 60 s and a 150 s stretch against a 5-minute file (median of --reps), both
//    ways, indexing that file and decoding a 30 s chunk; the load average beside them.
// 3. With --chance: chance against a file of another song, on real music (the soundtracks outside
//    the index of scripts/bench/recognition-engine.mjs, in .cache/recognition: fetch them with it
//    first): every track of 150 s or more indexed alone, and the middle 150 s of every other
//    track of the same package (the same composer and instruments: where chance is highest)
//    recognised against it both ways; prints the wrong files heard and the strongest evidence
//    chance gives a tracked hypothesis, confirmed and not (the check asks 180 of either).
//   node scripts/bench/download-check.mjs [--snrs -17,-18] [--seeds 4,5,6,7] [--ends 120,130,140]
//                                         [--lengths 60,90,120,150] [--reps 5] [--chance]
//                                         [--chance-only] [--chance-length 150]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
if (!process.env.WCS_BENCH_TSX) {
  // The TypeScript source under tsx (the test fakes are not built into dist).
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, WCS_BENCH_TSX: '1' },
    },
  );
  process.exit(run.status ?? 1);
}

const list = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return (at >= 0 ? process.argv[at + 1] : fallback).split(',').map(Number);
};
const snrs = list('--snrs', '-17,-18');
const seeds = list('--seeds', '4,5,6,7');
const ends = list('--ends', '120,130,140');
const lengths = list('--lengths', '60,90,120,150');
const [reps] = list('--reps', '5');
const chanceOnly = process.argv.includes('--chance-only');
const source = (file) => import(pathToFileURL(path.join(repoRoot, 'apps/server/src', file)).href);
const { decodeAudio } = await source('audio/decode.ts');
const fp = await source('audio/fingerprint/index.ts');
const { fileSource, heardConfidence, indexFile, MAX_STRETCH_SECONDS } = await source(
  'services/downloads/matching.ts',
);
const { concat, roomize, synthSong, webmOpus, writeWav } = await source('test/fakes/songs.ts');

const RATE = 22050;
const R = fp.FINGERPRINT_SAMPLE_RATE;
const ffmpegPath = process.env.FFMPEG_PATH || 'ffmpeg';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-download-'));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
/** Times of decoding one 30 s Opus chunk at the fingerprint rate (decodeStretch decodes 3-5 a stretch). */
const decodeMs = [];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A file indexed alone (matching.ts's fileSource, as indexFile does), the source both ways recognise against. */
async function oneFile(samples22k, name) {
  const file = path.join(work, `${name}.wav`);
  await writeWav(file, samples22k, RATE);
  const samples = await decodeAudio(file, { sampleRate: R, ffmpegPath });
  return { file, source: fileSource(samples).source };
}
const before = async (src, stretch) => (await fp.recognizeWith(src, stretch)).length > 0;
/** The check now (heardIn's rule), and the evidence of the stretch's tracked hypotheses (from 1). */
const now = async (src, stretch) => {
  const found = await fp.recognizeStreamWith(src, stretch, { tailSamples: 0, tracking: null }, { bound: 1 });
  return {
    heard: heardConfidence(found) !== null,
    windows: found.plays.length > 0,
    evidence: found.tracked.map((play) => `${play.evidence}${play.confirmed ? ' confirmed' : ''}`),
  };
};

/** The room's chunks (decoded at the fingerprint rate) and the middle `length` s of a play 0-`end`. */
function stretchOf(chunks, end, length) {
  const half = Math.min(end, length) / 2;
  const [from, to] = [end / 2 - half, end / 2 + half];
  const parts = [];
  chunks.forEach((chunk, i) => {
    const start = i * 30;
    if (start + chunk.length / R <= from || start >= to) return;
    parts.push(
      chunk.subarray(
        Math.max(0, Math.round((from - start) * R)),
        Math.min(chunk.length, Math.round((to - start) * R)),
      ),
    );
  });
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

async function roomChunks(song, seconds, snr, seed) {
  const night = roomize(
    concat(song.subarray(0, seconds * RATE), new Float32Array(10 * RATE)),
    RATE,
    snr,
    seed,
  );
  const chunks = [];
  for (let i = 0; i * 30 * RATE < night.length; i++) {
    const wav = path.join(work, `chunk-${i}.wav`);
    await writeWav(wav, night.subarray(i * 30 * RATE, (i + 1) * 30 * RATE), RATE);
    await webmOpus(wav, path.join(work, `chunk-${i}.webm`), ffmpegPath);
    const t0 = performance.now();
    chunks.push(await decodeAudio(path.join(work, `chunk-${i}.webm`), { sampleRate: R, ffmpegPath }));
    decodeMs.push(performance.now() - t0);
  }
  return chunks;
}

/** Part 3: other songs' stretches against each file, within each package of music outside the index. */
async function chance() {
  const cacheDir = path.join(repoRoot, '.cache/recognition');
  const { buildUnknownTracks } = await import('./recognition/corpus.mjs');
  const tracks = buildUnknownTracks(cacheDir, { ffprobe: 'ffprobe', log: console.log }).filter(
    (track) => track.duration >= 150,
  );
  const packages = new Map();
  for (const track of tracks) {
    const pkg = track.origin.split('/')[1].split('_')[0];
    packages.set(pkg, [...(packages.get(pkg) ?? []), track]);
  }
  // The stretch's length: the check's (MAX_STRETCH_SECONDS) unless --chance-length (60: the check before).
  const at = process.argv.indexOf('--chance-length');
  const chanceLength = at >= 0 ? Number(process.argv[at + 1]) : MAX_STRETCH_SECONDS;
  const started = performance.now();
  let pairs = 0;
  let stretchSeconds = 0;
  const heard = { before: [], now: [] };
  const strongest = { confirmed: [], unconfirmed: [] };
  const name = (track) => path.basename(track.origin);
  for (const [pkg, members] of packages) {
    const decoded = [];
    for (const track of members) {
      const samples = await decodeAudio(path.join(cacheDir, track.origin), { sampleRate: R, ffmpegPath });
      const middle = Math.floor(samples.length / 2);
      const half = Math.floor(Math.min(samples.length, chanceLength * R) / 2);
      decoded.push({
        track,
        source: fileSource(samples).source,
        stretch: samples.slice(middle - half, middle + half),
      });
    }
    for (const file of decoded) {
      for (const other of decoded) {
        if (other === file) continue;
        pairs++;
        stretchSeconds += other.stretch.length / R;
        const what = `${name(other.track)} against ${name(file.track)} (${pkg})`;
        // One recognition: its window plays are recognizeWith's (the check before), and every
        // hypothesis is told from evidence 1, so what chance gathers under the bounds shows; the
        // check now hears what heardConfidence keeps of it.
        const found = await fp.recognizeStreamWith(
          file.source,
          other.stretch,
          { tailSamples: 0, tracking: null },
          { bound: 1, unconfirmedFactor: 1 },
        );
        const tracked = found.tracked.map((play) => `${play.evidence}${play.confirmed ? ' confirmed' : ''}`);
        const windows = found.plays.map((play) => play.confidence);
        if (found.plays.length > 0) heard.before.push(what);
        for (const play of found.tracked) {
          strongest[play.confirmed ? 'confirmed' : 'unconfirmed'].push({ evidence: play.evidence, what });
        }
        if (heardConfidence(found) !== null) heard.now.push(what);
        if (windows.length > 0 || found.tracked.some((play) => play.evidence >= 90)) {
          console.log(`  ${what}: window plays [${windows.join(', ')}], tracked [${tracked.join(', ')}]`);
        }
      }
    }
    console.log(
      `${pkg}: ${members.length} tracks done (${((performance.now() - started) / 60000).toFixed(1)} min)`,
    );
  }
  const top = (list) =>
    list
      .sort((a, b) => b.evidence - a.evidence)
      .slice(0, 3)
      .map((x) => `${x.evidence} (${x.what})`)
      .join(', ') || 'none';
  console.log(
    `\nchance (${chanceLength} s stretches): ${tracks.length} tracks of ${packages.size} packages, ${pairs} pairs within a package, ${(stretchSeconds / 3600).toFixed(1)} h of stretches, ${((performance.now() - started) / 60000).toFixed(1)} min (load ${load()})`,
  );
  console.log(
    `wrong files heard before (windows): ${heard.before.length} ${heard.before.slice(0, 5).join('; ')}`,
  );
  console.log(
    `wrong files heard now (windows and tracking): ${heard.now.length} ${heard.now.slice(0, 5).join('; ')}`,
  );
  console.log(
    `tracked hypotheses with evidence: ${strongest.confirmed.length} confirmed, strongest ${top(strongest.confirmed)} (the check: 180)`,
  );
  console.log(
    `${strongest.unconfirmed.length} unconfirmed, strongest ${top(strongest.unconfirmed)} (the check: 180)`,
  );
}

try {
  console.log(`load average at start: ${load()}`);
  if (!chanceOnly) await heardAndTime();
  if (chanceOnly || process.argv.includes('--chance')) await chance();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

/** Parts 1 and 2. */
async function heardAndTime() {
  // 1. Heard or not.
  const gamma = synthSong(11, 150, RATE);
  const { source: gammaSource } = await oneFile(gamma, 'gamma');
  const { source: otherSource } = await oneFile(synthSong(404, 150, RATE), 'other');
  const rows = new Map(lengths.map((length) => [length, { before: 0, now: 0, wrong: 0, cases: 0 }]));
  for (const snr of snrs) {
    for (const seed of seeds) {
      const chunks = await roomChunks(gamma, 140, snr, seed);
      for (const end of ends) {
        const line = [];
        for (const length of lengths) {
          const stretch = stretchOf(chunks, end, length);
          const row = rows.get(length);
          const [b, n] = [await before(gammaSource, stretch), await now(gammaSource, stretch)];
          const wrong = (await before(otherSource, stretch)) || (await now(otherSource, stretch)).heard;
          row.cases++;
          row.before += b;
          row.now += n.heard;
          row.wrong += wrong;
          const tracked = n.evidence.length > 0 ? ` (tracked ${n.evidence.join(', ')})` : '';
          line.push(`${length} s: before ${b ? 'heard' : '-'}, now ${n.heard ? 'heard' : '-'}${tracked}`);
        }
        console.log(`${snr} dB, noise ${seed}, play 0-${end} s | ${line.join(' | ')}`);
      }
    }
  }
  console.log(
    '\n| middle of the play | heard before (windows) | heard now (windows and tracking) | another song heard |',
  );
  console.log('|---|---|---|---|');
  for (const [length, row] of rows) {
    console.log(
      `| ${length} s | ${row.before} of ${row.cases} | ${row.now} of ${row.cases} | ${row.wrong} of ${row.cases} |`,
    );
  }

  // 2. Time against a 5-minute file.
  const long = synthSong(11, 300, RATE);
  const file = path.join(work, 'five-minutes.wav');
  await writeWav(file, long, RATE);
  let t0 = performance.now();
  const indexed = await indexFile(file, ffmpegPath);
  console.log(`\nindexFile of a 5-minute file: ${(performance.now() - t0).toFixed(0)} ms (load ${load()})`);
  const { source: longSource } = await oneFile(long, 'five-minutes-bench');
  decodeMs.length = 0;
  for (const snr of [5, -18]) {
    const chunks = await roomChunks(long, 290, snr, 4);
    for (const length of [60, MAX_STRETCH_SECONDS]) {
      const stretch = stretchOf(chunks, 290, length);
      const times = { before: [], now: [], heardIn: [] };
      let heard = null;
      for (let rep = 0; rep < reps; rep++) {
        t0 = performance.now();
        await before(longSource, stretch);
        times.before.push(performance.now() - t0);
        t0 = performance.now();
        await now(longSource, stretch);
        times.now.push(performance.now() - t0);
        t0 = performance.now();
        heard = await indexed.heardIn(stretch);
        times.heardIn.push(performance.now() - t0);
      }
      console.log(
        `${length} s stretch at ${snr} dB: windows alone (before) ${median(times.before).toFixed(0)} ms, with tracking ${median(times.now).toFixed(0)} ms, heardIn ${median(times.heardIn).toFixed(0)} ms (confidence ${heard}; medians of ${reps}, load ${load()})`,
      );
    }
  }
  console.log(
    `decoding a 30 s Opus chunk: median ${median(decodeMs).toFixed(0)} ms of ${decodeMs.length} (load ${load()})`,
  );
}
