#!/usr/bin/env node
// The figures of a second verification feature (issue 23) from the records of
// `node scripts/bench/recognition-rooms.mjs ... --verify2 out.json` (recognition/verify2.mjs):
//   node scripts/bench/recognition/verify2-report.mjs out.json[,more.json] [--margins 0.01,0.05]
// For each feature (Haitsma-Kalker BER of energies 'lin' and of log energies 'log', at the key and
// the best of its settles; the band-level correlation 'corr'): the true song at the offset its
// excerpt was cut at (the oracle) and misaligned, against every other song's keys the windows'
// search tried (impostors: in the indexed tracks' windows and in the windows of music outside the
// index); the threshold that keeps every impostor out by a margin (--margins: BER, correlation);
// and how many of the windows missed today each rule would accept (the new ceiling): the feature
// alone, peaks score >= 30 OR the feature, and peaks score >= L AND the feature (its threshold
// then over the impostors whose peaks reach L), each at the oracle's key and at the true song's
// keys the search found. Prints markdown; asserts nothing.
import fs from 'node:fs';

const file = process.argv[2];
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const [berMargin, corrMargin] = option('--margins', '0.01,0.05').split(',').map(Number);
// (several files, comma-separated: their windows together, e.g. the rooms' windows and the unknown music's)
const loaded = file.split(',').map((name) => JSON.parse(fs.readFileSync(name, 'utf8')));
const songs = loaded[0].songs;
const records = loaded.flatMap((data) => data.records);
const MIN_SCORE = 30;

// Features: higher is better for each (a BER is turned around).
const FEATURES = [
  { name: 'HK BER at the key', key: 'lin', ber: true },
  { name: 'HK BER, best of 25 settles', key: 'bestLin', ber: true },
  { name: 'HK BER of log energies, best of 25', key: 'bestLog', ber: true },
  { name: 'band-level correlation at the key', key: 'corr', ber: false },
  { name: 'band-level correlation, best of 5 offsets', key: 'bestCorr', ber: false },
];
const value = (f, x) => (f.ber ? -x[f.key] : x[f.key]);
const show = (f, v) => (f.ber ? (-v).toFixed(3) : v.toFixed(3));
const quantile = (values, q) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const margin = (f) => (f.ber ? berMargin : corrMargin);

const known = records.filter((r) => r.truth !== null);
const unknown = records.filter((r) => r.truth === null);
const missed = known.filter((r) => r.top !== r.truth);
const groups = [...new Set(records.map((r) => `${r.snr}`))].map((snr) => ({
  snr: Number(snr),
  records: records.filter((r) => `${r.snr}` === snr),
}));
// The window threshold a key of each path needs today (index.ts, matcher.ts: MIN_SCORE, plus
// PROBE_MARGIN for the second chance's and PEAK_MARGIN for the single peaks').
const needed = (k) => MIN_SCORE + (k.via === 'probe' ? 5 : k.via === 'peaks' ? 10 : 0);
// Songs that really hold the music of a window's song: another song's key that its peaks verify at
// its path's threshold in an indexed track's window (the peaks tell shared music, not chance).
const shared = new Set();
for (const r of known)
  for (const k of r.tried)
    if (k.place === 'other' && k.peaks >= needed(k)) shared.add(`${r.truth}:${k.songId}`);
const isShared = (r, k) => shared.has(`${r.truth}:${k.songId}`) || shared.has(`${k.songId}:${r.truth}`);
const impostorsOf = (list) =>
  list.flatMap((r) => r.tried.filter((k) => k.place === 'other' && (r.truth === null || !isShared(r, k))));
const allImpostors = impostorsOf(records);
const sharedKeys = records.flatMap((r) =>
  r.tried.filter((k) => k.place === 'other' && r.truth !== null && isShared(r, k)),
);
const truePlaced = (r) => r.tried.filter((k) => k.place === 'true');

console.log(`# A second verification feature (${file}: ${songs} songs, ${records.length} windows)\n`);
console.log(
  `${known.length} windows of indexed tracks (${missed.length} missed today), ${unknown.length} of music outside the index (${unknown.filter((r) => r.guard).length} of them its whole tracks' 10 s one after another); ${allImpostors.length} impostor keys tried (other songs'), ${allImpostors.filter((k) => k.place === 'other' && k.via === 'pairs').length} by pairs, ${allImpostors.filter((k) => k.via === 'probe').length} by the second chance, ${allImpostors.filter((k) => k.via === 'peaks').length} by single peaks; true song's own keys found in ${known.filter((r) => truePlaced(r).length > 0).length} windows.\n`,
);

console.log(
  `Shared music (left out of the impostors): ${[...shared].map((pair) => pair.replace(':', ' and ')).join(', ') || 'none'}, ${sharedKeys.length} keys; their best: peaks ${Math.max(...sharedKeys.map((k) => k.peaks)).toFixed(1)}, ${FEATURES.map((f) => `${f.key} ${show(f, Math.max(...sharedKeys.map((k) => value(f, k))))}`).join(', ')}.\n`,
);

// 1. Distributions.
console.log('## True song at its true offset against impostors\n');
console.log(
  "| feature | crowd | true (oracle) p10 (worst) / median / p90 | missed windows' true: median | impostors: best / p99.9 / p99 / median (keys) | best impostor in music outside the index |",
);
console.log('|---|---|---|---|---|---|');
for (const f of FEATURES) {
  for (const { snr, records: list } of groups) {
    const truths = list.filter((r) => r.oracle).map((r) => value(f, r.oracle.at));
    const missedTrue = list.filter((r) => r.oracle && r.top !== r.truth).map((r) => value(f, r.oracle.at));
    const imp = impostorsOf(list).map((k) => value(f, k));
    const outside = impostorsOf(list.filter((r) => r.truth === null)).map((k) => value(f, k));
    console.log(
      `| ${f.name} | ${snr > 0 ? '+' : ''}${snr} dB | ${[0.1, 0.5, 0.9].map((q) => show(f, quantile(truths, q))).join(' / ')} | ${show(f, quantile(missedTrue, 0.5))} | ${show(f, Math.max(...imp))} / ${show(f, quantile(imp, 0.999))} / ${show(f, quantile(imp, 0.99))} / ${show(f, quantile(imp, 0.5))} (${imp.length}) | ${show(f, Math.max(...outside))} |`,
    );
  }
}
{
  const peaks = allImpostors.map((k) => k.peaks);
  console.log(
    `\nPeaks score of the impostor keys: best ${Math.max(...peaks).toFixed(1)}, p99.9 ${quantile(peaks, 0.999).toFixed(1)}, p99 ${quantile(peaks, 0.99).toFixed(1)}.`,
  );
}

// 2. Misalignment of the true key.
console.log(
  '\n## The true key misaligned (median over the indexed windows; at the key / best of the settles)\n',
);
const shifts = ['-2', '-1', '+1', '+2', '-1%', '+1%'];
console.log(`| feature | at the true offset | ${shifts.join(' | ')} |`);
console.log(`|---|---|${shifts.map(() => '---|').join('')}`);
for (const f of FEATURES) {
  const med = (pick) =>
    show(
      f,
      quantile(
        known.map((r) => value(f, pick(r))),
        0.5,
      ),
    );
  console.log(
    `| ${f.name} | ${med((r) => r.oracle.at)} | ${shifts.map((s) => med((r) => r.oracle.misaligned[s])).join(' | ')} |`,
  );
}

// 3. Rules and their ceilings.
console.log(
  `\n## Ceilings: windows heard today plus the missed ones a rule accepts (threshold: the best impostor the rule lets be tried, plus a margin of ${berMargin} BER / ${corrMargin} correlation)\n`,
);
const heardToday = (list) => list.filter((r) => r.top === r.truth).length;
const rows = [];
// (the oracle's key is held to the pairs' threshold, as --diagnose holds it; the search's keys to their path's)
const ceiling = (name, accepts, threshold) => {
  const cells = groups.map(({ records: list }) => {
    const own = list.filter((r) => r.truth !== null);
    const heard = heardToday(own);
    const oracle = own.filter((r) => r.top !== r.truth && accepts({ ...r.oracle.at, via: 'oracle' })).length;
    const found = own.filter((r) => r.top !== r.truth && truePlaced(r).some(accepts)).length;
    const pct = (n) => `${((100 * n) / own.length).toFixed(1)} %`;
    return `${pct(heard + oracle)} (+${oracle}) / ${pct(heard + found)} (+${found})`;
  });
  const falses = allImpostors.filter((k) => accepts(k) && k.peaks < needed(k)).length;
  rows.push(`| ${name} | ${threshold} | ${cells.join(' | ')} | ${falses} |`);
};
const today = (k) => k.peaks >= needed(k);
ceiling("today: peaks score at its path's threshold (30, second chance 35, single peaks 40)", today, '-');
for (const f of FEATURES) {
  const imp = allImpostors.map((k) => value(f, k));
  const mean = imp.reduce((sum, v) => sum + v, 0) / imp.length;
  const sd = Math.sqrt(imp.reduce((sum, v) => sum + (v - mean) ** 2, 0) / imp.length);
  // (each threshold also as standard deviations over the impostors' mean: the guard's hours try
  // some 10^6 keys where this run tries some 10^4)
  const z = (t) => `${show(f, t)} (${((t - mean) / sd).toFixed(1)} sd)`;
  const t = Math.max(...imp) + margin(f);
  ceiling(`${f.name} alone`, (k) => value(f, k) >= t, z(t));
  ceiling(`today OR ${f.name}`, (k) => today(k) || value(f, k) >= t, z(t));
  for (const low of [10, 15, 20, 25]) {
    const tried = allImpostors.filter((k) => k.peaks >= low).map((k) => value(f, k));
    const tl = (tried.length ? Math.max(...tried) : Number.NEGATIVE_INFINITY) + margin(f);
    ceiling(
      `today OR (peaks >= ${low} AND ${f.name})`,
      (k) => today(k) || (k.peaks >= low && value(f, k) >= tl),
      `${z(tl)} over ${tried.length}`,
    );
  }
}
console.log(
  `| rule | feature threshold (over the impostors tried) | ${groups.map(({ snr }) => `${snr > 0 ? '+' : ''}${snr} dB: oracle / search's keys`).join(' | ')} | impostor keys accepted that today's rule rejects |`,
);
console.log(`|---|---|${groups.map(() => '---|').join('')}---|`);
for (const row of rows) console.log(row);

// 4. Cost.
const second = records.reduce((s, r) => s + r.cost.second, 0);
const ms = records.reduce((s, r) => s + r.cost.secondMs, 0);
console.log(
  `\nCost: ${second} keys scored by every feature, ${((1000 * ms) / second).toFixed(0)} us of wall time a key (all features, at the run's load).`,
);
