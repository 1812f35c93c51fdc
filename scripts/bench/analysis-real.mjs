#!/usr/bin/env node
// Analysis benchmark on real productions: produced songs whose tempo their own source states
// (tracker modules, Frets on Fire charts: see analysis/real-corpus.mjs and analysis/truth.mjs),
// fetched from Debian packages into .cache/bench-analysis-real. Every song is analysed as the
// server does (ffmpeg decode, then the analyser) and scored: tempo Accuracy1, Accuracy2, the
// danceable octave (the reported BPM inside the declared range and within 4 % of the truth
// halved or doubled into it), results outside the range, how often the DJ's one click (bpm_alt)
// gives the danceable tempo when bpm misses it, speed in × real time on one core.
//
// Beside it, with --essentia, the open analyser essentia.js (AGPL: a measuring stick only,
// installed by this script into .cache/essentia with npm, never a dependency of the product):
// PercivalBpmEstimator and RhythmExtractor2013 (method 'degara'), their BPM folded the same way,
// and KeyExtractor (profile 'bgate'). Its results are cached in .cache/bench-analysis-real.
// Key: scored (exact, MIREX) where the source tells it (LMMS projects' notes, MIDI files' and
// MuseScore scores' key signatures and notes, ABC tunes' K: fields, Solfege melodies' \key:
// analysis/truth.mjs), ours beside essentia's, also by where the key comes from (stated by the
// source, a signature whose mode the notes choose, the notes alone; scripts/bench/key-truth.mjs
// measures the notes rule on stated keys);
// elsewhere only agreement with essentia. Songs whose tempo changes count for the key alone.
// Usage: node scripts/bench/analysis-real.mjs [--essentia | --essentia-key] [--essentia-tempo-on <package>] [--misses]
//        (--essentia-key: essentia's KeyExtractor only, its two tempo estimators being slow)
//        (WCS_BENCH_SOURCE=1 npx tsx scripts/bench/analysis-real.mjs: the TypeScript source)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { essentiaKey, loadEssentia } from './analysis/essentia.mjs';
import { mirexKeyScore, tempoAccuracy1, tempoAccuracy2 } from './analysis/metrics.mjs';
import { buildRealCases } from './analysis/real-corpus.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(repoRoot, '.cache/bench-analysis-real');
const essentiaKeyOnly = process.argv.includes('--essentia-key');
const withEssentia = essentiaKeyOnly || process.argv.includes('--essentia');
// --essentia-tempo-on <origin>: essentia's (slow) tempo estimators only on that package's songs.
const tempoOnAt = process.argv.indexOf('--essentia-tempo-on');
const essentiaTempoOrigin = tempoOnAt >= 0 ? process.argv[tempoOnAt + 1] : null;
const showMisses = process.argv.includes('--misses');
const fromSource = process.env.WCS_BENCH_SOURCE === '1';

if (!fromSource) {
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
}
const base = path.join(repoRoot, fromSource ? 'apps/server/src' : 'apps/server/dist');
const ext = fromSource ? 'ts' : 'js';
const analysis = await import(path.join(base, `audio/analysis/index.${ext}`));
const { decodeAudio } = await import(path.join(base, `audio/decode.${ext}`));
const tempoModule = await import(path.join(base, `audio/analysis/tempo.${ext}`));
const LOW = tempoModule.TEMPO_RANGE_LOW ?? 70;
const HIGH = tempoModule.TEMPO_RANGE_HIGH ?? 140;

const { cases, leftOut } = buildRealCases(cacheDir);

/** Right in the danceable octave: inside [LOW, HIGH] and within 4 % of the truth times 2^k. */
function danceable(truth, estimate) {
  if (estimate === null || estimate < LOW || estimate > HIGH) return false;
  return [-3, -2, -1, 0, 1, 2, 3].some((k) => tempoAccuracy1(truth * 2 ** k, estimate));
}
/** A tempo halved or doubled into [LOW, HIGH] (how essentia's raw BPM is compared). */
function fold(bpm) {
  if (!(bpm > 0)) return null;
  let value = bpm;
  while (value > HIGH) value /= 2;
  while (value < LOW) value *= 2;
  return value;
}

// 1. Our analyser, one song at a time on this thread (ffmpeg decodes in its own process).
const loadBefore = os.loadavg()[0];
let audioSeconds = 0;
let decodeMs = 0;
let analyseMs = 0;
const results = [];
for (const testCase of cases) {
  const t0 = performance.now();
  let samples = await decodeAudio(testCase.file, { sampleRate: analysis.ANALYSIS_SAMPLE_RATE });
  const t1 = performance.now();
  let result = analysis.analyzeSamples(samples, analysis.ANALYSIS_SAMPLE_RATE);
  const t2 = performance.now();
  // As analyzeFile does: a mix that cancels in mono is decoded again from its first channel.
  if (analysis.isSilentAnalysis?.(result)) {
    const again = await decodeAudio(testCase.file, {
      sampleRate: analysis.ANALYSIS_SAMPLE_RATE,
      channels: 'first',
    });
    const t3 = performance.now();
    const second = analysis.analyzeSamples(again, analysis.ANALYSIS_SAMPLE_RATE);
    const t4 = performance.now();
    decodeMs += t3 - t2;
    analyseMs += t4 - t3;
    if (!analysis.isSilentAnalysis(second)) {
      samples = again;
      result = second;
    }
  }
  audioSeconds += samples.length / analysis.ANALYSIS_SAMPLE_RATE;
  decodeMs += t1 - t0;
  analyseMs += t2 - t1;
  results.push({ ...testCase, result });
}
const loadAfter = os.loadavg()[0];

// 2. essentia.js on the same files (cached by file id and essentia version).
let essentiaVersion = null;
if (withEssentia) {
  const essentia = loadEssentia(repoRoot);
  essentiaVersion = essentia.version;
  const cacheFile = path.join(cacheDir, `essentia-${essentiaVersion}.json`);
  const cached = fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) : {};
  for (const r of results) {
    const needTempo =
      !essentiaKeyOnly &&
      r.bpm !== null &&
      (!essentiaTempoOrigin || r.origin === essentiaTempoOrigin) &&
      cached[r.id]?.percival === undefined;
    if (!cached[r.id] || needTempo) {
      const samples = await decodeAudio(r.file, { sampleRate: 44100 });
      const t0 = performance.now();
      const vector = essentia.arrayToVector(samples);
      const percival = needTempo ? essentia.PercivalBpmEstimator(vector).bpm : undefined;
      const t1 = performance.now();
      const rhythm = needTempo ? essentia.RhythmExtractor2013(vector, 208, 'degara', 40).bpm : undefined;
      const t2 = performance.now();
      const key = essentiaKey(essentia, vector);
      vector.delete?.();
      cached[r.id] = {
        ...cached[r.id],
        ...(needTempo ? { percival, rhythm, percivalMs: t1 - t0, rhythmMs: t2 - t1 } : {}),
        key: key.key,
        keyStrength: key.strength,
        seconds: samples.length / 44100,
      };
      fs.writeFileSync(cacheFile, JSON.stringify(cached, null, 2));
      process.stdout.write(`\ressentia.js: ${Object.keys(cached).length} songs`);
    }
    r.essentia = cached[r.id];
  }
  console.log('');
}

// 3. Scores.
const pct = (count, n) => `${((100 * count) / n).toFixed(1)} %`;
function tempoRow(label, rows, estimateOf) {
  const n = rows.length;
  const est = rows.map((r) => ({ truth: r.bpm, bpm: estimateOf(r) }));
  const acc1 = est.filter((e) => tempoAccuracy1(e.truth, e.bpm)).length;
  const acc2 = est.filter((e) => tempoAccuracy2(e.truth, e.bpm)).length;
  const octave = est.filter((e) => danceable(e.truth, e.bpm)).length;
  const outside = est.filter((e) => e.bpm !== null && (e.bpm < LOW || e.bpm > HIGH)).length;
  const none = est.filter((e) => e.bpm === null).length;
  return `| ${label} | ${n} | ${pct(acc1, n)} | ${pct(acc2, n)} | ${pct(octave, n)} | ${outside} | ${none} |`;
}

console.log(`\nanalysis_version: ${analysis.ANALYSIS_VERSION}`);
// Songs whose tempo changes are kept for their key alone (bpm null): tempo is scored on the rest.
const timed = results.filter((r) => r.bpm !== null);
console.log(
  `${results.length} real songs (${timed.length} with a tempo), ${(audioSeconds / 60).toFixed(1)} min of audio, truth ${Math.min(...timed.map((r) => r.bpm))}-${Math.max(...timed.map((r) => r.bpm))} BPM; ` +
    `declared range ${LOW}-${HIGH} BPM; ${leftOut.length} left out`,
);
console.log('\n| analyser | songs | Acc1 | Acc2 | danceable octave | outside range | no tempo |');
console.log('|---|---|---|---|---|---|---|');
const ours = (r) => r.result.bpm;
console.log(tempoRow('ours (bpm)', timed, ours));
const byStyle = [...new Set(timed.map((r) => r.style))];
for (const style of byStyle)
  console.log(
    tempoRow(
      `  ${style}`,
      timed.filter((r) => r.style === style),
      ours,
    ),
  );
console.log(
  tempoRow(
    '  truth 70-140',
    timed.filter((r) => r.bpm >= LOW && r.bpm <= HIGH),
    ours,
  ),
);
console.log(
  tempoRow(
    '  truth outside 70-140',
    timed.filter((r) => r.bpm < LOW || r.bpm > HIGH),
    ours,
  ),
);
const withAlt = timed.filter(
  (r) =>
    danceable(r.bpm, r.result.bpm) ||
    danceable(r.bpm, r.result.bpm_alt) ||
    tempoAccuracy1(r.bpm, r.result.bpm_alt),
).length;
console.log(
  `| ours, bpm or one click to bpm_alt | ${timed.length} | | | ${pct(withAlt, timed.length)} | | |`,
);
// essentia's tempo on the songs it ran on (all of them, or one package's with --essentia-tempo-on).
const withTempo = withEssentia ? timed.filter((r) => r.essentia.percival !== undefined) : [];
if (withTempo.length > 0) {
  const label = (name) => (withTempo.length < timed.length ? `${name}, its ${withTempo.length} songs` : name);
  if (withTempo.length < timed.length) console.log(tempoRow(label('ours'), withTempo, ours));
  console.log(tempoRow(label('essentia.js Percival (raw)'), withTempo, (r) => r.essentia.percival));
  console.log(tempoRow(label('essentia.js Percival (folded)'), withTempo, (r) => fold(r.essentia.percival)));
  console.log(tempoRow(label('essentia.js RhythmExtractor2013 (raw)'), withTempo, (r) => r.essentia.rhythm));
  console.log(
    tempoRow(label('essentia.js RhythmExtractor2013 (folded)'), withTempo, (r) => fold(r.essentia.rhythm)),
  );
  const essentiaSeconds = withTempo.reduce((s, r) => s + r.essentia.seconds, 0);
  const essentiaMs = withTempo.reduce((s, r) => s + r.essentia.percivalMs + r.essentia.rhythmMs, 0);
  console.log(
    `essentia.js ${essentiaVersion} tempo (Percival + RhythmExtractor2013): ${(essentiaSeconds / (essentiaMs / 1000)).toFixed(0)}× real time`,
  );
}

// Key: where the source's notes tell it (LMMS projects, truth.mjs), exact and MIREX, ours beside
// essentia's KeyExtractor; then ours against essentia on the songs whose key no source tells.
{
  const keyed = results.filter((r) => r.key);
  const keyRow = (label, rows, keyOf) => {
    const n = rows.length;
    if (n === 0) return `| ${label} | 0 | | |`;
    const exact = rows.filter((r) => keyOf(r) === r.key).length;
    const mirex = rows.reduce((s, r) => s + mirexKeyScore(r.key, keyOf(r)), 0) / n;
    return `| ${label} | ${n} | ${pct(exact, n)} | ${mirex.toFixed(3)} |`;
  };
  console.log('\n| key (truth from the source) | songs | exact | MIREX |');
  console.log('|---|---|---|---|');
  console.log(keyRow('ours', keyed, (r) => r.result.key));
  // Where the key comes from: stated by the source (ABC K:, Solfege \key), a key signature whose
  // mode the notes choose, or the notes alone (analysis/truth.mjs, checked by key-truth.mjs).
  const SOURCES = {
    stated: 'stated by the source',
    signature: 'key signature, mode from the notes',
    notes: 'from the notes alone',
  };
  const bySource = (keyOf) => {
    for (const [source, label] of Object.entries(SOURCES))
      console.log(
        keyRow(
          `  ${label}`,
          keyed.filter((r) => r.keySource === source),
          keyOf,
        ),
      );
    console.log(
      keyRow(
        '  stated or signature',
        keyed.filter((r) => r.keySource !== 'notes'),
        keyOf,
      ),
    );
    for (const style of [...new Set(keyed.map((r) => r.style))])
      console.log(
        keyRow(
          `  ${style}`,
          keyed.filter((r) => r.style === style),
          keyOf,
        ),
      );
  };
  bySource((r) => r.result.key);
  for (const origin of [...new Set(keyed.map((r) => r.origin))])
    console.log(
      keyRow(
        `  ${origin}`,
        keyed.filter((r) => r.origin === origin),
        (r) => r.result.key,
      ),
    );
  const sure = keyed.filter((r) => !r.result.key_uncertain);
  console.log(keyRow('ours, keys not shown "uncertain"', sure, (r) => r.result.key));
  console.log(
    keyRow(
      'ours, keys shown "uncertain"',
      keyed.filter((r) => r.result.key_uncertain),
      (r) => r.result.key,
    ),
  );
  // Is "uncertain" shown where it should be? Wrong keys it flags against right keys it hides.
  const wrong = keyed.filter((r) => r.result.key !== r.key);
  const right = keyed.filter((r) => r.result.key === r.key);
  console.log(
    `"uncertain" shown on ${wrong.filter((r) => r.result.key_uncertain).length} of the ${wrong.length} wrong keys ` +
      `and on ${right.filter((r) => r.result.key_uncertain).length} of the ${right.length} right ones`,
  );
  const under = (rows, t) => rows.filter((r) => r.result.key_confidence < t).length;
  console.log(
    `at other thresholds (wrong flagged / right hidden): ${[0.1, 0.2, 0.3, 0.4, 0.5]
      .map((t) => `${t}: ${under(wrong, t)} / ${under(right, t)}`)
      .join(', ')}`,
  );
  if (withEssentia) {
    console.log(keyRow('essentia.js KeyExtractor (bgate)', keyed, (r) => r.essentia.key));
    bySource((r) => r.essentia.key);
    for (const origin of [...new Set(keyed.map((r) => r.origin))])
      console.log(
        keyRow(
          `  ${origin}`,
          keyed.filter((r) => r.origin === origin),
          (r) => r.essentia.key,
        ),
      );
  }
  if (withEssentia) {
    const rest = results.filter((r) => !r.key);
    const n = rest.length;
    const agree = rest.reduce((sum, r) => sum + mirexKeyScore(r.essentia.key, r.result.key), 0);
    const exact = rest.filter((r) => r.result.key === r.essentia.key).length;
    console.log(
      `on the ${n} songs with no key truth: ours equals essentia.js KeyExtractor on ${pct(exact, n)}, ` +
        `MIREX score of ours against it ${(agree / n).toFixed(3)}`,
    );
  }
  const uncertain = results.filter((r) => r.result.key_uncertain).length;
  console.log(`ours says "uncertain" on ${uncertain} of ${results.length} songs`);
}

if (showMisses) {
  console.log('\nsongs (truth, ours bpm / bpm_alt, tempo confidence, key, key confidence):');
  for (const r of results) {
    const mark = r.bpm === null || danceable(r.bpm, r.result.bpm) ? '  ' : '✗ ';
    const e = r.essentia
      ? `; essentia ${r.essentia.percival?.toFixed(1)}/${r.essentia.rhythm?.toFixed(1)} ${r.essentia.key}`
      : '';
    console.log(
      `${mark}${r.name} [${r.origin}]: truth ${r.bpm} (${r.truth}); ours ${r.result.bpm} / ${r.result.bpm_alt}, ` +
        `confidence ${r.result.features.tempo_confidence}; key ${r.result.key} (${r.result.key_confidence})${e}` +
        (r.key ? `; key truth ${r.key} (${r.keyTruth})` : ''),
    );
  }
  for (const l of leftOut) console.log(`  left out: ${l.name}: ${l.reason}`);
}

console.log(
  `\nspeed (one core): decode ${(audioSeconds / (decodeMs / 1000)).toFixed(0)}× real time, ` +
    `analysis ${(audioSeconds / (analyseMs / 1000)).toFixed(0)}×, whole (decode + analysis) ` +
    `${(audioSeconds / ((decodeMs + analyseMs) / 1000)).toFixed(0)}× real time; ` +
    `${((decodeMs + analyseMs) / results.length).toFixed(0)} ms per song of ${(audioSeconds / results.length).toFixed(0)} s`,
);
console.log(
  `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, ${os.cpus().length} cores`,
);
