import { it } from 'vitest';
import { createTestDatabase } from '../../test/harness.js';
import { hashPeaks } from './hashes.js';
import { FINGERPRINT_VERSION, hashSignal, recognizeTimeline } from './index.js';
import { collectMatches, detectWindow } from './matcher.js';
import { WARPS } from './params.js';
import { extractPeaks } from './peaks.js';
import { lookupHashes, replaceSongFingerprints } from './store.js';
import { addNoise, synthSong } from './synth.js';

it('prof', async () => {
  const database = await createTestDatabase();
  const songs: Float32Array[] = [];
  for (let i = 1; i <= 30; i++) {
    const { rows } = await database.pool.query(
      `insert into songs (title, artist, search_key) values ($1, 'a', $1) returning id`,
      [`s${i}`],
    );
    const s = synthSong(i, 120, 8000);
    songs.push(s);
    await replaceSongFingerprints(database.db, rows[0].id, hashSignal(s), FINGERPRINT_VERSION);
  }
  const t = { peaks: 0, hash: 0, lookup: 0, match: 0, total: 0 };
  let distinctN = 0,
    rowsN = 0,
    matchesN = 0;
  for (let q = 0; q < 20; q++) {
    const query = addNoise(songs[q]!.subarray(8000 * 30, 8000 * 40), 5, q);
    let t0 = performance.now();
    const peaks = extractPeaks(query);
    t.peaks += performance.now() - t0;
    t0 = performance.now();
    const perWarp = WARPS.map((w) => hashPeaks(peaks, w));
    const distinct = new Set<number>();
    for (const h of perWarp) for (let i = 0; i < h.count; i++) distinct.add(h.hash[i]!);
    t.hash += performance.now() - t0;
    t0 = performance.now();
    const postings = await lookupHashes(database.db, distinct);
    t.lookup += performance.now() - t0;
    t0 = performance.now();
    const m = collectMatches(perWarp, postings, 0);
    detectWindow(m, 0);
    t.match += performance.now() - t0;
    distinctN += distinct.size;
    rowsN += [...postings.values()].reduce((s, l) => s + l.length / 2, 0);
    matchesN += m.length;
    t0 = performance.now();
    await recognizeTimeline(database.db, query);
    t.total += performance.now() - t0;
  }
  console.log(
    'PROF',
    JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, (v / 20).toFixed(1)]))),
    distinctN / 20,
    rowsN / 20,
    matchesN / 20,
  );
  await database.drop();
}, 300000);
