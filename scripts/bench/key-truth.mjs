#!/usr/bin/env node
// How reliable is the key truth the real-music benchmark derives from notes? 31 of its keys (LMMS
// projects, MIDI files without a key signature) are not stated by their source: truth.mjs takes
// the Kostka-Payne key of the notes' pitch-class time (notesKey: correlation at least 0.7, the
// runner-up at least 0.05 under it). This script applies that same rule, blind, to music whose
// source STATES its key, and counts how often the rule names the stated key:
//
// - ABC tunes (the examples of Debian's abcmidi and abcm2ps; K: fields that state one major or
//   minor key, every length), their notes as abc2midi plays them;
// - GNU Solfege's dictation melodies (Debian's solfege: German, Polish and Norwegian folk songs
//   and a Bach invention with a \key command), their notes read by analysis/solfege.mjs;
// - the rendered benchmark's mma chord charts (analysis/charts.mjs: key by construction,
//   progressions from the tonic to the tonic), their notes as mma writes them;
// - key signatures without a trustworthy mode (MuseScore's demos, OpenMSX files that state one):
//   only whether the rule lands on the signature's major key or its relative minor.
//
// Needs abc2midi (abcmidi), mma and, for the signatures, mscore3 (musescore3); a tool that is
// missing leaves its source out. Packages are fetched as analysis-real.mjs fetches them.
// Usage: node scripts/bench/key-truth.mjs [--list]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchmarkCases } from './analysis/charts.mjs';
import { mirexKeyScore } from './analysis/metrics.mjs';
import { fetchPackages, walk } from './analysis/real-corpus.mjs';
import { notesToMidi, solfegeLessons } from './analysis/solfege.mjs';
import { abcTunes, KEY_TRUTH_MIN_R, midiTempo, notesKey, symbolicKeys } from './analysis/truth.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(repoRoot, '.cache/bench-analysis-real');
const list = process.argv.includes('--list');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-key-truth-'));

const folders = Object.fromEntries(
  fetchPackages(cacheDir, console.log, [
    'abcmidi',
    'abcm2ps',
    'solfege',
    'openttd-openmsx',
    'musescore3-common',
    'musescore-common',
  ]).map((f) => [f.name, f.folder]),
);

/** { source, name, stated, pitchClassTime, pair? } */
const songs = [];

// 1. ABC tunes.
for (const pkg of ['abcmidi', 'abcm2ps']) {
  for (const file of walk(folders[pkg])
    .filter((f) => /\/examples\/[^/]+\.abc$/.test(f))
    .sort()) {
    for (const tune of abcTunes(fs.readFileSync(file, 'utf8'))) {
      if (!tune.key) continue;
      const base = path.join(tmp, 'tune');
      fs.writeFileSync(`${base}.abc`, tune.text);
      try {
        execFileSync('abc2midi', [`${base}.abc`, '-o', `${base}.mid`], { stdio: 'ignore' });
      } catch {
        continue;
      }
      const found = fs.existsSync(`${base}.mid`) && midiTempo(fs.readFileSync(`${base}.mid`));
      fs.rmSync(`${base}.mid`, { force: true });
      if (!found) continue;
      songs.push({
        source: 'ABC tunes (K:)',
        name: `${path.basename(file, '.abc')} ${tune.number} (${tune.title})`,
        stated: tune.key,
        pitchClassTime: found.pitchClassTime,
      });
    }
  }
}

// 2. Solfege's melodies with a \key.
const lessons = path.join(folders.solfege, 'usr/share/solfege/exercises/standard/lesson-files');
for (const file of ['volkslieder1', 'volkslieder2', 'polish-folk-songs', 'barnesanger', 'jsb-inventions']) {
  for (const q of solfegeLessons(fs.readFileSync(path.join(lessons, file), 'utf8'))) {
    if (!q.key || q.notes.length === 0) continue;
    // Through a MIDI file, as every other source: the same reader counts the notes.
    const found = midiTempo(notesToMidi(q.notes, q.tempo));
    songs.push({
      source: 'Solfege melodies (\\key)',
      name: `${file}: ${q.name}`,
      stated: q.key,
      pitchClassTime: found.pitchClassTime,
    });
  }
}

// 3. The rendered benchmark's chord charts.
for (const c of benchmarkCases(96)) {
  const base = path.join(tmp, 'chart');
  fs.writeFileSync(`${base}.mma`, c.chart);
  try {
    execFileSync('mma', ['-f', `${base}.mid`, `${base}.mma`], { stdio: 'pipe' });
  } catch {
    console.warn('mma is not installed (apt-get install mma): the charts are left out');
    break;
  }
  const found = midiTempo(fs.readFileSync(`${base}.mid`));
  songs.push({
    source: 'mma charts (rendered set)',
    name: c.id,
    stated: c.key,
    pitchClassTime: found.pitchClassTime,
  });
}

// 4. Key signatures whose mode is not stated: MuseScore's demos (exported to MIDI by MuseScore 3),
// OpenMSX's files that state one.
const PITCH_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const signaturePair = (midi) => {
  const b = new Uint8Array(midi);
  const sharps = new Set();
  for (let i = 0; i + 4 < b.length; i++)
    if (b[i] === 0xff && b[i + 1] === 0x59 && b[i + 2] === 2) sharps.add((b[i + 3] << 24) >> 24);
  if (sharps.size !== 1) return null;
  const [s] = sharps;
  const major = (((s * 7) % 12) + 12) % 12;
  if (s === 0) return null;
  return [`${PITCH_NAMES[major]} major`, `${PITCH_NAMES[(major + 9) % 12]} minor`];
};
for (const file of walk(folders['openttd-openmsx']).filter((f) => f.endsWith('.mid'))) {
  const raw = fs.readFileSync(file);
  const pair = signaturePair(raw);
  if (!pair) continue;
  songs.push({
    source: 'signatures (OpenMSX)',
    name: path.basename(file),
    pair,
    pitchClassTime: midiTempo(raw).pitchClassTime,
  });
}
for (const pkg of ['musescore3-common', 'musescore-common']) {
  for (const score of walk(folders[pkg]).filter((f) => /\/demos\/[^/]+\.msc[xz]$/.test(f))) {
    const name = path.basename(score).replace(/\.mscz?$/, '');
    if (songs.some((s) => s.name === name)) continue;
    const midi = path.join(tmp, 'score.mid');
    try {
      execFileSync('mscore3', ['-o', midi, score], {
        stdio: 'ignore',
        env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
      });
    } catch {
      continue;
    }
    const raw = fs.readFileSync(midi);
    fs.rmSync(midi);
    const pair = signaturePair(raw);
    if (pair)
      songs.push({
        source: 'signatures (MuseScore)',
        name,
        pair,
        pitchClassTime: midiTempo(raw).pitchClassTime,
      });
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

// The rule, blind: notesKey as the benchmark applies it, and its best key without the two limits.
const relation = (stated, estimate) => {
  if (!estimate) return 'no key';
  if (estimate === stated) return 'same';
  const [t, m] = stated.split(' ');
  const [e, n] = estimate.split(' ');
  const d = (PITCH_NAMES.indexOf(e) - PITCH_NAMES.indexOf(t) + 12) % 12;
  if (m === n && d === 7) return 'dominant';
  if (m === n && d === 5) return 'subdominant';
  if (m !== n && ((m === 'major' && d === 9) || (m === 'minor' && d === 3))) return 'relative';
  if (d === 0) return 'parallel';
  return 'other';
};
for (const s of songs) {
  s.rule = notesKey(s.pitchClassTime, 'stated').key;
  const ranked = symbolicKeys(s.pitchClassTime);
  s.best = ranked[0].key;
  s.r = ranked[0].r;
  s.margin = ranked[0].r - ranked[1].r;
}

fs.writeFileSync(path.join(cacheDir, 'key-truth.json'), JSON.stringify(songs));

const pct = (a, n) => (n ? `${((100 * a) / n).toFixed(1)} %` : '-');
console.log(
  '\n| source | songs | the rule gives a key | exact, of those | MIREX, of those | best key exact (no limits) | its MIREX | misses of the rule |',
);
console.log('|---|---|---|---|---|---|---|---|');
const row = (label, rows) => {
  const keyed = rows.filter((s) => s.rule);
  const exact = keyed.filter((s) => s.rule === s.stated).length;
  const mirex = keyed.reduce((t, s) => t + mirexKeyScore(s.stated, s.rule), 0) / (keyed.length || 1);
  const bestExact = rows.filter((s) => s.best === s.stated).length;
  const bestMirex = rows.reduce((t, s) => t + mirexKeyScore(s.stated, s.best), 0) / (rows.length || 1);
  const kinds = {};
  for (const s of keyed)
    if (s.rule !== s.stated) kinds[relation(s.stated, s.rule)] = (kinds[relation(s.stated, s.rule)] ?? 0) + 1;
  console.log(
    `| ${label} | ${rows.length} | ${keyed.length} (${pct(keyed.length, rows.length)}) | ${pct(exact, keyed.length)} | ${mirex.toFixed(3)} | ${pct(bestExact, rows.length)} | ${bestMirex.toFixed(3)} | ${
      Object.entries(kinds)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ') || 'none'
    } |`,
  );
};
const stated = songs.filter((s) => s.stated);
for (const source of [...new Set(stated.map((s) => s.source))])
  row(
    source,
    stated.filter((s) => s.source === source),
  );
row('all with a stated key', stated);
row(
  'ABC + Solfege (melodies and tunes)',
  stated.filter((s) => !s.source.startsWith('mma')),
);

// The rule's runner-up margin (KEY_TRUTH_MARGIN, 0.05 until 2026-11-27, then 0.1) and its
// minimum correlation (KEY_TRUTH_MIN_R), each setting applied to the stated keys alone.
console.log(
  '\n| margin | minimum r | songs given a key (mma / ABC / Solfege) | exact (mma / ABC / Solfege) | all: exact, MIREX |',
);
console.log('|---|---|---|---|---|');
for (const minR of [0, KEY_TRUTH_MIN_R])
  for (const margin of [0.05, 0.07, 0.08, 0.1, 0.12]) {
    const parts = ['mma', 'ABC', 'Solfege'].map((p) => {
      const rows = stated.filter((s) => s.source.startsWith(p) && s.r >= minR && s.margin >= margin);
      return { n: rows.length, exact: rows.filter((s) => s.best === s.stated).length, rows };
    });
    const all = parts.flatMap((p) => p.rows);
    const mirex = all.reduce((t, s) => t + mirexKeyScore(s.stated, s.best), 0) / (all.length || 1);
    console.log(
      `| ${margin} | ${minR} | ${all.length} (${parts.map((p) => p.n).join(' / ')}) | ${parts.map((p) => pct(p.exact, p.n)).join(' / ')} | ${pct(all.filter((s) => s.best === s.stated).length, all.length)}, ${mirex.toFixed(3)} |`,
    );
  }

const paired = songs.filter((s) => s.pair);
if (paired.length > 0) {
  console.log(
    '\n| signature without a mode | songs | the rule gives a key | on the signature (its major or relative minor), of those |',
  );
  console.log('|---|---|---|---|');
  for (const source of [...new Set(paired.map((s) => s.source))]) {
    const rows = paired.filter((s) => s.source === source);
    const keyed = rows.filter((s) => s.rule);
    console.log(
      `| ${source} | ${rows.length} | ${keyed.length} | ${pct(keyed.filter((s) => s.pair.includes(s.rule)).length, keyed.length)} |`,
    );
  }
}

if (list) {
  console.log('');
  for (const s of songs) {
    const truth = s.stated ?? s.pair.join(' / ');
    const verdict = s.stated
      ? relation(s.stated, s.rule)
      : s.rule
        ? s.pair.includes(s.rule)
          ? 'on the signature'
          : 'off the signature'
        : 'no key';
    console.log(
      `${verdict === 'same' || verdict === 'on the signature' ? '  ' : '✗ '}[${s.source}] ${s.name}: stated ${truth}; rule ${s.rule ?? '-'} (${verdict}); best ${s.best} r ${s.r.toFixed(3)}, margin ${s.margin.toFixed(3)}`,
    );
  }
}
