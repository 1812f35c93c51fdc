#!/usr/bin/env node
// Analysis benchmark: builds its own ground truth (chord charts in every key, over WCS grooves and
// tempi 70-135 BPM, rendered with Debian's mma + fluidsynth + the General MIDI soundfont, encoded
// to MP3) in .cache/bench-analysis, analyses every file as the server does (decode with ffmpeg,
// then the analyser), and prints tempo Accuracy1/Accuracy2, key exact and MIREX weighted score,
// a per-groove breakdown, the misses, and the speed in × real time on one core. Finally it runs
// `wcs analyze --json` on a few files (plus an unreadable one) to check the command line path.
// With --essentia, essentia.js's KeyExtractor (AGPL, a measuring stick installed into .cache/essentia,
// see analysis/essentia.mjs) keys the same files beside ours (cached in .cache/bench-analysis).
// Usage: node scripts/bench/analysis.mjs [--songs 96] [--misses] [--essentia]
//        (WCS_BENCH_SOURCE=1 npx tsx scripts/bench/analysis.mjs: analyse with the TypeScript source)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchmarkCases, renderCase, SOUNDFONT_CANDIDATES } from './analysis/charts.mjs';
import { essentiaKey, loadEssentia } from './analysis/essentia.mjs';
import { mirexKeyScore, tempoAccuracy1, tempoAccuracy2 } from './analysis/metrics.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const argValue = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const songs = Math.max(1, Number(argValue('--songs', 96)) || 96);
const showMisses = process.argv.includes('--misses');
const withEssentia = process.argv.includes('--essentia');
const cacheDir = path.join(repoRoot, '.cache/bench-analysis');

function haveTools() {
  const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  return (
    has('mma') && has('fluidsynth') && has('ffmpeg') && SOUNDFONT_CANDIDATES.some((f) => fs.existsSync(f))
  );
}

if (!haveTools()) {
  const packages = ['mma', 'fluidsynth', 'fluid-soundfont-gm', 'ffmpeg'];
  if (process.getuid?.() === 0) {
    console.log(`Installing ${packages.join(' ')} (Debian packages) to render the ground truth...`);
    execFileSync('apt-get', ['install', '-y', ...packages], { stdio: 'inherit' });
  } else {
    console.error(
      `This benchmark renders its ground truth with mma, fluidsynth and a General MIDI soundfont.\n` +
        `Install them first: sudo apt-get install -y ${packages.join(' ')}`,
    );
    process.exit(1);
  }
}
const soundfont = SOUNDFONT_CANDIDATES.find((f) => fs.existsSync(f));

// The analyser: built JavaScript (what `wcs` runs), or the TypeScript source under tsx.
let analysis;
if (process.env.WCS_BENCH_SOURCE === '1') {
  analysis = await import(path.join(repoRoot, 'apps/server/src/audio/analysis/index.ts'));
} else {
  try {
    execFileSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server'],
      {
        cwd: repoRoot,
        stdio: 'inherit',
      },
    );
  } catch {
    console.warn('tsc reported errors; using whatever apps/server/dist holds.');
  }
  analysis = await import(path.join(repoRoot, 'apps/server/dist/audio/analysis/index.js'));
}
const { decodeAudio } = await import(
  path.join(
    repoRoot,
    `apps/server/${process.env.WCS_BENCH_SOURCE === '1' ? 'src/audio/decode.ts' : 'dist/audio/decode.js'}`,
  )
);

// 1. Ground truth.
fs.mkdirSync(cacheDir, { recursive: true });
const cases = benchmarkCases(songs);
const renderStart = performance.now();
let rendered = 0;
for (const testCase of cases) {
  const existed = fs.existsSync(path.join(cacheDir, `${testCase.id}.mp3`));
  testCase.file = renderCase(testCase, cacheDir, soundfont);
  if (!existed) {
    rendered++;
    process.stdout.write(`\rrendered ${rendered} new files`);
  }
}
if (rendered)
  console.log(` in ${((performance.now() - renderStart) / 1000).toFixed(1)} s (cached in ${cacheDir})`);

// 2. Analysis, one file at a time on this thread (ffmpeg decodes in its own process meanwhile).
const loadBefore = os.loadavg()[0];
let audioSeconds = 0;
let decodeMs = 0;
let analyseMs = 0;
let analyseCpuMs = 0;
const results = [];
for (const testCase of cases) {
  const t0 = performance.now();
  const samples = await decodeAudio(testCase.file, { sampleRate: analysis.ANALYSIS_SAMPLE_RATE });
  const t1 = performance.now();
  const cpu = process.cpuUsage();
  const result = analysis.analyzeSamples(samples, analysis.ANALYSIS_SAMPLE_RATE);
  const used = process.cpuUsage(cpu);
  const t2 = performance.now();
  audioSeconds += samples.length / analysis.ANALYSIS_SAMPLE_RATE;
  decodeMs += t1 - t0;
  analyseMs += t2 - t1;
  analyseCpuMs += (used.user + used.system) / 1000;
  results.push({ ...testCase, result });
}
const loadAfter = os.loadavg()[0];

// essentia.js's KeyExtractor on the same files, cached by file name and essentia version.
if (withEssentia) {
  const essentia = loadEssentia(repoRoot);
  const cacheFile = path.join(cacheDir, `essentia-key-${essentia.version}.json`);
  const cached = fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) : {};
  for (const r of results) {
    if (!cached[r.id]) {
      const vector = essentia.arrayToVector(await decodeAudio(r.file, { sampleRate: 44100 }));
      cached[r.id] = essentiaKey(essentia, vector).key;
      vector.delete?.();
      fs.writeFileSync(cacheFile, JSON.stringify(cached, null, 2));
    }
    r.essentiaKey = cached[r.id];
  }
}

// 3. Scores.
function summarise(rows) {
  const n = rows.length;
  const acc1 = rows.filter((r) => tempoAccuracy1(r.bpm, r.result.bpm)).length;
  const acc2 = rows.filter((r) => tempoAccuracy2(r.bpm, r.result.bpm)).length;
  const exact = rows.filter((r) => r.result.key === r.key).length;
  const mirex = rows.reduce((sum, r) => sum + mirexKeyScore(r.key, r.result.key), 0);
  return {
    n,
    acc1: `${((100 * acc1) / n).toFixed(1)}%`,
    acc2: `${((100 * acc2) / n).toFixed(1)}%`,
    keyExact: `${((100 * exact) / n).toFixed(1)}%`,
    mirex: (mirex / n).toFixed(3),
  };
}
const pad = (value, width) => String(value).padEnd(width);
const row = (label, s) =>
  `| ${pad(label, 14)} | ${pad(s.n, 3)} | ${pad(s.acc1, 6)} | ${pad(s.acc2, 6)} | ${pad(s.keyExact, 6)} | ${pad(s.mirex, 5)} |`;
console.log(`\nanalysis_version: ${analysis.ANALYSIS_VERSION}`);
console.log(
  `${songs} songs, ${(audioSeconds / 60).toFixed(1)} min of audio, truth 70-135 BPM, all 24 keys\n`,
);
console.log('| groove         | n   | Acc1   | Acc2   | key    | MIREX |');
console.log('|----------------|-----|--------|--------|--------|-------|');
const grooves = [...new Set(results.map((r) => r.groove))];
for (const groove of grooves) console.log(row(groove, summarise(results.filter((r) => r.groove === groove))));
console.log(row('all', summarise(results)));
console.log(row('  major keys', summarise(results.filter((r) => r.key.endsWith('major')))));
console.log(row('  minor keys', summarise(results.filter((r) => r.key.endsWith('minor')))));
console.log(row('  70-90 BPM', summarise(results.filter((r) => r.bpm < 90))));
console.log(row('  90-135 BPM', summarise(results.filter((r) => r.bpm >= 90))));
// Key by halves (settings are chosen on songs 0-47, checked on 48-95), ours beside essentia's.
{
  const keyScore = (rows, keyOf) =>
    `${((100 * rows.filter((r) => keyOf(r) === r.key).length) / rows.length).toFixed(1)} % exact, MIREX ` +
    (rows.reduce((sum, r) => sum + mirexKeyScore(r.key, keyOf(r)), 0) / rows.length).toFixed(3);
  const halves = [results.slice(0, 48), results.slice(48)].filter((rows) => rows.length > 0);
  const keyers = [['ours', (r) => r.result.key]];
  if (withEssentia) keyers.push(['essentia.js KeyExtractor', (r) => r.essentiaKey]);
  for (const [name, keyOf] of keyers)
    console.log(
      `key, ${name}: ${halves.map((rows, i) => `songs ${i * 48}-${i * 48 + rows.length - 1} ${keyScore(rows, keyOf)}`).join('; ')}`,
    );
}

// The key confidence: how a threshold on it would split right keys from wrong ones (the key is
// shown as "uncertain" under KEY_CONFIDENCE_MIN; what a DJ then sees is scored on the rest).
if (results.some((r) => typeof r.result.key_confidence === 'number')) {
  console.log(
    '\n| key confidence under | shown uncertain | of them wrong | wrong keys caught | MIREX of the keys shown |',
  );
  console.log('|---|---|---|---|---|');
  const wrong = results.filter((r) => r.result.key !== r.key).length;
  for (const threshold of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
    const flagged = results.filter((r) => (r.result.key_confidence ?? 0) < threshold);
    const shown = results.filter((r) => (r.result.key_confidence ?? 0) >= threshold);
    const flaggedWrong = flagged.filter((r) => r.result.key !== r.key).length;
    const mirexShown =
      shown.reduce((sum, r) => sum + mirexKeyScore(r.key, r.result.key), 0) / Math.max(1, shown.length);
    const mark = threshold === analysis.KEY_CONFIDENCE_MIN ? ' (in use)' : '';
    console.log(
      `| ${threshold}${mark} | ${flagged.length} | ${flaggedWrong} | ${flaggedWrong} of ${wrong} | ${mirexShown.toFixed(3)} |`,
    );
  }
}
const outside = results.filter(
  (r) =>
    r.result.bpm !== null &&
    (r.result.bpm < analysis.TEMPO_RANGE_LOW || r.result.bpm > analysis.TEMPO_RANGE_HIGH),
).length;
if (analysis.TEMPO_RANGE_LOW)
  console.log(`\nBPM outside ${analysis.TEMPO_RANGE_LOW}-${analysis.TEMPO_RANGE_HIGH}: ${outside}`);

const misses = results.filter((r) => !tempoAccuracy1(r.bpm, r.result.bpm) || r.result.key !== r.key);
console.log(
  `\n${misses.length} songs with a tempo or key miss${showMisses ? ':' : ' (--misses lists them)'}`,
);
if (showMisses) {
  for (const r of misses) {
    const f = r.result.features;
    console.log(
      `  ${r.id}: bpm ${r.result.bpm} (truth ${r.bpm}), key ${r.result.key} (truth ${r.key}), ` +
        `tempo confidence ${f.tempo_confidence}, key strength ${f.key_strength}, key confidence ${r.result.key_confidence}`,
    );
  }
}

console.log(
  `\nspeed (one core): decode ${(audioSeconds / (decodeMs / 1000)).toFixed(0)}× real time, ` +
    `analysis ${(audioSeconds / (analyseMs / 1000)).toFixed(0)}× (CPU ${(audioSeconds / (analyseCpuMs / 1000)).toFixed(0)}×), ` +
    `whole (decode + analysis) ${(audioSeconds / ((decodeMs + analyseMs) / 1000)).toFixed(0)}× real time; ` +
    `${((decodeMs + analyseMs) / results.length).toFixed(0)} ms per song of ${(audioSeconds / results.length).toFixed(0)} s`,
);
console.log(
  `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, ${os.cpus().length} cores`,
);

// 4. The command line path: `wcs analyze --json` on three files and an unreadable one.
if (process.env.WCS_BENCH_SOURCE !== '1') {
  const broken = path.join(cacheDir, 'not-audio.mp3');
  fs.writeFileSync(broken, 'not audio');
  const picked = results.slice(0, 3);
  const cli = spawnSync(
    process.execPath,
    ['apps/server/bin/wcs.js', 'analyze', '--json', ...picked.map((r) => r.file), broken],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  const lines = cli.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const agrees = picked.every(
    (r, i) =>
      lines[i]?.bpm === r.result.bpm &&
      lines[i]?.key === r.result.key &&
      lines[i]?.energy === r.result.energy,
  );
  const failedLine = lines[picked.length];
  console.log(
    `wcs analyze --json: ${agrees ? 'same values as the module' : 'DIFFERENT values from the module'} on ${picked.length} files; ` +
      `unreadable file ${failedLine?.error ? 'reported' : 'NOT reported'}, exit code ${cli.status}`,
  );
  fs.rmSync(broken);
}
