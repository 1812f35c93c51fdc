#!/usr/bin/env node
// Recognition in rooms the engine was not tuned on, and nights as the headline (issue 23). The
// benchmark's tracks (.cache/recognition, fetched by scripts/bench/recognition.mjs' corpus) are
// indexed in memory with fillers up to --songs (as recognition-engine.mjs does), then:
//
// 1. 10 s windows in every room of recognition/rooms.mjs at crowd +5 and 0 dB: every track, indexed
//    or not, at --positions places; correct / wrong / false per room, tuning and held-out rooms
//    reported apart.
// 2. Nights (--nights, --night-hours in all) in the held-out rooms (or --night-split tuning): DJ
//    sets of the indexed tracks with songs outside the library between them (the tracks kept out
//    and other packages' soundtracks), crossfades of 4-10 s, tempo and speed changes, stretches
//    masked by a cheering crowd; Opus 128 kbit/s, then recognised as the server does it: 30 s
//    chunks, each with the 20 s tail of the chunk before, merged into the timeline by the
//    product's own mergeDetections. Song recall, plays per true play, false plays per 10 h, start
//    and end error (median, p90).
// 3. --unknown-hours of music outside the index, whole tracks, through the held-out rooms in turn:
//    false plays, and the evidence of the strongest chance chain (what EVIDENCE_BOUND must exceed).
//
// Prints tables; asserts nothing.
//   node scripts/bench/recognition-rooms.mjs [--songs 1000] [--positions 2] [--nights 4]
//     [--night-hours 5.2] [--night-split held-out] [--unknown-hours 11] [--skip-windows]
//     [--skip-nights] [--skip-unknown] [--bounds 120,200] [--merge-gaps 20,45]
//     [--rules on,no-ends,off,starts,joins] [--crossfades 5,10] [--fills 0,60]
//     [--reaches 0,60] [--reach-mins 10] [--reach-confidences 0.9375,2] [--histories 0,120,1e9]
//     [--detections-out nights.json] [--detections-in nights.json] [--verbose] [--diagnose]
//     [--no-track] [--track-bounds 0,150] [--track-variants 'backSeconds=60;elsewhereFactor=2'] [--track-end-bounds 0,60]
//     [--track-end-gap 20] [--only-nights 2,4] [--night-limit 600] [--trace] [--trace-songs 14]
//     [--window-trace] [--global-peaks h10,h6,2,0.35] [--global-peaks-top 3] [--global-peaks-cheapest 0.1]
//     [--sketch 32,16,4,1] [--sketch-top 20,50] [--triplets 10000] [--verify2 out.json]
// The nights are recognised as the server recognises a recording (recognition/stream.mjs: the
// engine's recognizeStreamWith chunk by chunk), the stream's track-before-detect included
// (audio/fingerprint/tracking.ts): its tracked plays are merged after each chunk's own, as
// services/recognition/recognition-chunk.ts does. --track-bounds keeps the tracked plays whose
// evidence reaches each bound (0: none, the chunks' windows alone; default TRACK_BOUND), all from
// one recognition; --no-track recognises the nights without tracking (faster: no tracked plays).
// --diagnose: for the 10 s windows missed, why (see diagnose below): no candidate, or a candidate
// that failed verification, and what the true song scores verified at the offset it was cut at;
// and for the nights' library plays missed, the same for each of their windows (diagnoseMissed).
// --global-peaks Q,R,B,TOL: for the 10 s windows no song is heard in (the indexed tracks' missed
// ones and every query outside the index), candidate songs by single peaks against every song
// (recognition/single-peaks.mjs: the query's peaks Q against every song's R, each h (hashed, 'bin'
// whitening) or v (verified) and a density, e.g. h10 and h6, the engine's QUERY_PEAKS and
// REFERENCE_PEAKS; offset buckets of B frames; TOL bins): where the true song ranks, and the first
// --global-peaks-top songs verified at their best offset (no warp) as a key is, at the window
// threshold and at 40: the windows that would be heard, wrong songs and false recognitions; votes
// and CPU a window (docs/performance.md, "Single peaks against every song"). --global-peaks-cheapest F:
// only the fraction F of the window's peaks whose bins hold the fewest indexed peaks vote.
// --sketch SEGMENT,HOP,MARGIN,BAND: for the same windows, candidate songs by a time-coarse sketch of
// every song (recognition/peak-sketch.mjs: each song's hashed peaks at REFERENCE_PEAKS as bit sets
// of log-frequency bands of BAND bins, in segments of SEGMENT frames every HOP, widened by MARGIN;
// the window's hashed peaks at QUERY_PEAKS in segments of SEGMENT): where the true song ranks
// (first / 10 / 20 / 50), then for each K of --sketch-top the first K songs searched by single
// peaks among them (PeakVote, buckets of 2 frames, ±0.35 bin, as --global-peaks h10,h6,2,0.35
// votes) and the first 3 verified at their offsets as --global-peaks verifies them; CPU of the
// sketch's scan and of the vote a window (docs/performance.md, "A coarse peak sketch of every song").
// --triplets N: for each indexed track's 10 s window, the true song's pair matches at its key (no
// warp, within 3 frames of the offset it was cut at) by the class of their bucket in an index of
// N songs (the tracks and fillers up to N, its mean bucket and stop list: recognition/triplets.mjs),
// and how many of them a triplet (the pair and a third peak of the anchor's target zone) would
// keep: what looking up triplets instead of the large pair buckets would leave of the true song's
// votes in each room (docs/performance.md, "Triplets for the large pair buckets, measured").
// --verify2 FILE: a second verification feature (recognition/verify2.mjs: Haitsma and Kalker's
// sub-fingerprints, and a band-level correlation) scored at every key each 10 s window's search
// tries (pairs, second chance, single peaks), beside the key's peaks score; for an indexed track's
// window also at its true song's true offset (the oracle of --diagnose) and misaligned; with the
// unknown music (no --skip-unknown) also every 10 s of it, one after another. Saved to FILE for
// recognition/verify2-report.mjs (docs/performance.md, "A second verification feature, measured").
// --bounds and --merge-gaps evaluate the nights once per evidence bound and server merge gap (s)
// from one pass of window detections (default: the engine's EVIDENCE_BOUND, the server's
// MERGE_GAP_SECONDS); the per-night rows are the first of each. --rules and --crossfades likewise
// for mergeDetections' play rules (see playsOf), crossfade allowance (CROSSFADE_SECONDS) and the
// gap before the next play that a play's end fills (FILL_SECONDS); --reaches and --reach-mins for
// how far a play followed by a longer gap is taken on to its song's end (REACH_SECONDS,
// REACH_MIN_SECONDS; reach 0: never), --reach-confidences for the confidence from which it is not
// (REACH_MAX_CONFIDENCE; 2: none); --histories chains each chunk's windows with those of the
// stream's last N seconds before it (each window once), as the server would if it kept them: weak
// evidence adding up across chunks (0: the chunk alone, as the server does). --detections-out saves the
// nights' window detections chunk by chunk, --detections-in evaluates them again (no index, no
// audio: a change to how plays are built, measured in seconds); --verbose lists every play found.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ensureNodeModules, ensureSystemPackages, repoRoot, runMain } from '../ensure.mjs';
import { ffmpegToPcm, RATE, rng, writeWav } from './recognition/audio.mjs';
import { buildTracks, buildUnknownTracks, splitTracks } from './recognition/corpus.mjs';
import { fillerMove, fillerSong } from './recognition/fillers.mjs';
import { PeakSketchIndex, PeakVote } from './recognition/peak-sketch.mjs';
import { crowdNoise, inRoom, ROOMS, talkerPool } from './recognition/rooms.mjs';
import { SinglePeakIndex } from './recognition/single-peaks.mjs';
import { streamChunks, trackVariantsOf } from './recognition/stream.mjs';
import { bucketClasses, CLASS_NAMES, songKeys, trueKeyMatches } from './recognition/triplets.mjs';
import { bandEdges, bandEnergies, powerFrames, scoreKey, subFingerprints } from './recognition/verify2.mjs';

const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const targetSongs = Number(option('--songs', 1000));
const positions = Number(option('--positions', 2));
const nightCount = Number(option('--nights', 4));
const nightHours = Number(option('--night-hours', 5.2));
const nightSplit = option('--night-split', 'held-out');
const unknownHours = Number(option('--unknown-hours', 11));
const snrs = String(option('--snrs', '5,0')).split(',').map(Number);
const roomFilter = option('--rooms', null);
const boundsOption = option('--bounds', null);
const gapsOption = option('--merge-gaps', null);
const rulesOption = option('--rules', null);
const crossfadesOption = option('--crossfades', null);
const fillsOption = option('--fills', null);
const reachesOption = option('--reaches', null);
const reachMinsOption = option('--reach-mins', null);
const reachConfidencesOption = option('--reach-confidences', null);
const historiesOption = option('--histories', null);
const tracking = !process.argv.includes('--no-track');
const trackBoundsOption = option('--track-bounds', null);
// --track-variants 'backSeconds=60;elsewhereFactor=2': trackings of their own on the same chunks,
// each with those TrackOptions (';' between variants, '' the server's: `--track-variants ';backSeconds=60'`); --track-end-bounds 0,60 with --track-end-gap 20:
// a tracked play whose windows hear its song to within the gap (s) of its end kept from that
// evidence (0: no such rule).
const trackVariants = trackVariantsOf(process.argv);
const trackEndBounds = option('--track-end-bounds', '0').split(',').map(Number);
const trackEndGap = Number(option('--track-end-gap', 20));
// The nights' window detections, chunk by chunk, saved to / evaluated from a file: play-building
// rules measured again without recognising the nights again.
const detectionsOut = option('--detections-out', null);
const detectionsIn = option('--detections-in', null);
const verbose = process.argv.includes('--verbose');
// --only-nights 2,4: build and recognise those nights only (the others' random draws are their own);
// --night-limit S: each night cut after S seconds (a diagnosis of a night's first minutes);
// --trace: for each library play missed, the stream's window detections of its song and the
// evidence its tracked hypotheses reached (with --track-bounds 1,...: every hypothesis's).
const onlyNights = option('--only-nights', null)?.split(',').map(Number) ?? null;
const nightLimit = Number(option('--night-limit', 0));
const trace = process.argv.includes('--trace');
const traceSongs = option('--trace-songs', '').split(',').filter(Boolean).map(Number);
// --window-trace (with --trace-songs): each play of those songs, every window of every chunk that
// holds it (as windowDetections places them: the same audio early in one chunk and at the end of
// the one before), with the true song's votes and rank and its score verified at its true position.
const windowTraceOn = process.argv.includes('--window-trace');
const skip = (part) => process.argv.includes(`--skip-${part}`);
const globalPeaksOption = option('--global-peaks', null);
const peakSet = (text) => ({ hashed: text.startsWith('h'), density: Number(text.slice(1)) });
const globalPeaks = globalPeaksOption
  ? ((query, ref, bucket, tol) => ({
      query: peakSet(query),
      ref: peakSet(ref),
      bucket: Number(bucket),
      tol: Number(tol),
    }))(...globalPeaksOption.split(','))
  : null;
const globalPeaksTop = Number(option('--global-peaks-top', 3));
const globalPeaksCheapest = Number(option('--global-peaks-cheapest', 1));
const sketchOption = option('--sketch', null);
const sketch = sketchOption
  ? ((segment, hop, margin, bandBins) => ({
      segment: Number(segment),
      hop: Number(hop),
      margin: Number(margin),
      bandBins: Number(bandBins),
    }))(...sketchOption.split(','))
  : null;
const sketchTops = String(option('--sketch-top', '20,50')).split(',').map(Number);
const tripletSongs = Number(option('--triplets', 0));
const verify2Out = option('--verify2', null);

const quantile = (values, q) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
const log = (message) => process.stderr.write(`[rooms] ${message}\n`);

/** A crowd bed of a room (10 minutes), looped for longer signals from a random point. */
const BED_SECONDS = 600;
function crowdFor(bed, length, random) {
  const out = new Float32Array(length);
  let at = Math.floor(random() * bed.length);
  for (let i = 0; i < length; i++) {
    out[i] = bed[at];
    at = at + 1 === bed.length ? 0 : at + 1;
  }
  return out;
}

runMain(async () => {
  ensureNodeModules();
  if (!detectionsIn) ensureSystemPackages(['ffmpeg', 'espeak-ng']);
  ensureBuilt();
  const dist = (file) => import(pathToFileURL(path.join(repoRoot, 'apps/server/dist', file)).href);
  const engine = await dist('audio/fingerprint/index.js');
  const matcher = await dist('audio/fingerprint/matcher.js');
  const params = await dist('audio/fingerprint/params.js');
  const timeline = await dist('services/recognition/recognition-timeline.js');
  const trackingModule = await dist('audio/fingerprint/tracking.js');
  if (detectionsIn) {
    // The nights' figures from saved window detections only (no index, no audio).
    const saved = JSON.parse(fs.readFileSync(detectionsIn, 'utf8'));
    if (saved.nightSplit !== nightSplit) throw new Error(`${detectionsIn} holds ${saved.nightSplit} nights`);
    console.log(`# Nights from ${detectionsIn} (${saved.songs} songs in the index)`);
    if (!saved.songFrames) throw new Error(`${detectionsIn} holds no songFrames (saved before they were)`);
    reportNights(saved.records, { engine, params, timeline, songFrames: saved.songFrames, matcher });
    return;
  }
  const { mergeIndex, emptyIndex } = await dist('audio/fingerprint/memory-index.js');
  const { decodeAudio } = await dist('audio/decode.js');
  const peaksModule = await dist('audio/fingerprint/peaks.js');
  const hashesModule = await dist('audio/fingerprint/hashes.js');
  const cacheDir = path.join(repoRoot, '.cache/recognition');
  const { inIndex, outOfIndex } = splitTracks(buildTracks(cacheDir, { ffmpeg, ffprobe: 'ffprobe', log }));
  const unknownTracks = buildUnknownTracks(cacheDir, { ffprobe: 'ffprobe', log });
  const pool = talkerPool(cacheDir, { ffmpeg, log });
  const rooms = ROOMS.filter(
    (room) => !roomFilter || roomFilter.split(',').some((r) => room.name.startsWith(r)),
  );
  const beds = new Map(
    rooms.map((room, k) => [room.name, crowdNoise(BED_SECONDS * RATE, room, pool, 500 + k)]),
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-rooms-'));
  const scratch = path.join(work, 'scratch.wav');
  const toEngine = async (samples) => {
    const file = path.join(work, 'engine.wav');
    writeWav(file, samples);
    const pcm = await decodeAudio(file, { sampleRate: engine.FINGERPRINT_SAMPLE_RATE, ffmpegPath: ffmpeg });
    fs.rmSync(file);
    return pcm;
  };
  try {
    // The index: the indexed tracks and fillers, in memory.
    const songs = [];
    const peaksOf = new Map();
    // (each song's hashed peaks, for --global-peaks and --sketch)
    const hashedOf = new Map();
    const real = [];
    const songIdOf = new Map();
    // (--verify2: each song's sub-fingerprints, a filler's from its track's audio moved as its peaks are)
    const bitsOf = new Map();
    const verify2Cost = { ms: 0, frames: 0 };
    const t0 = performance.now();
    for (const [k, track] of inIndex.entries()) {
      const samples = await decodeAudio(track.file, {
        sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: ffmpeg,
      });
      const indexed = engine.indexSignal(samples);
      if (verify2Out) {
        const frames = indexed.peaks.frames;
        const started = performance.now();
        const spec = powerFrames(samples, {
          rate: params.SAMPLE_RATE,
          hop: params.HOP,
          fftSize: params.FFT_SIZE,
          frames,
        });
        bitsOf.set(k + 1, subFingerprints(bandEnergies(spec, bandEdges(1)), frames, spec.valid));
        verify2Cost.ms += performance.now() - started;
        verify2Cost.frames += frames;
        for (let i = k; inIndex.length + i < targetSongs; i += inIndex.length) {
          const { shift, stretch } = fillerMove(i, inIndex.length);
          // (filler frame n holds the track's frame frames - 1 - n / stretch, its pitch 2^(shift/32) higher)
          const energy = bandEnergies(spec, bandEdges(2 ** (-shift / params.BINS_PER_OCTAVE)));
          const fillerFrames = Math.round(frames * stretch);
          bitsOf.set(
            inIndex.length + i + 1,
            subFingerprints(energy, fillerFrames, spec.valid, (n) => frames - 1 - Math.round(n / stretch)),
          );
        }
      }
      songs.push({ songId: k + 1, revision: 1, hashes: indexed.hashes });
      peaksOf.set(k + 1, indexed.peaks);
      if (globalPeaks || sketch) hashedOf.set(k + 1, indexed.hashedPeaks);
      songIdOf.set(track.id, k + 1);
      real.push(indexed);
    }
    for (let i = 0; songs.length < targetSongs; i++) {
      const { peaks, hashedPeaks, hashes } = fillerSong(real, i, engine.referenceHashes);
      const songId = songs.length + 1;
      songs.push({ songId, revision: 1, hashes });
      peaksOf.set(songId, peaks);
      if (globalPeaks || sketch) hashedOf.set(songId, hashedPeaks);
    }
    const index = mergeIndex(emptyIndex(), new Set(), songs);
    const source = engine.memorySource(index, peaksOf);
    // --triplets N: the bucket classes of an index of N songs (bucket sizes only), and the
    // indexed tracks' pairs and triplets.
    let triplets = null;
    if (tripletSongs > 0) {
      const sizes = new Int32Array(hashesModule.HASH_SPACE);
      let n = 0;
      for (const indexed of real) {
        for (let i = 0; i < indexed.hashes.count; i++) sizes[indexed.hashes.hash[i]]++;
        n++;
      }
      for (let i = 0; n < tripletSongs; i++, n++) {
        const { hashes } = fillerSong(real, i, engine.referenceHashes);
        for (let j = 0; j < hashes.count; j++) sizes[hashes.hash[j]]++;
      }
      const classes = bucketClasses(sizes, params);
      triplets = {
        ...classes,
        keys: real.map((indexed) =>
          songKeys(
            hashesModule.hashPeaks(
              peaksModule.keepDensity(indexed.hashedPeaks, params.REFERENCE_PEAKS),
              { a: 1, pitch: false },
              params.REFERENCE_TARGETS,
            ),
          ),
        ),
        rows: [],
      };
      log(
        `--triplets: classes of ${tripletSongs} songs (${classes.total} pairs, mean bucket ${classes.mean.toFixed(1)}, stop above ${classes.maxBucket.toFixed(0)})`,
      );
    }
    log(`index of ${songs.length} songs built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    console.log(
      `# Recognition in rooms (${new Date().toISOString()}, ${songs.length} songs in the index, ` +
        `load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
    );
    console.log(
      `engine: WEAK_SCORE ${params.WEAK_SCORE}, EVIDENCE_BOUND ${params.EVIDENCE_BOUND}, MIN_SCORE ${params.MIN_SCORE}, SOLO_FACTOR ${params.SOLO_FACTOR}`,
    );

    if (verify2Out)
      log(
        `--verify2: sub-fingerprints of ${bitsOf.size} songs; the indexed tracks' at ${((1000 * verify2Cost.ms) / verify2Cost.frames).toFixed(1)} us a frame`,
      );
    // (--verify2: the windows' and the unknown music's records, saved after each part)
    const verify2Records = [];
    const saveVerify2 = () => {
      fs.writeFileSync(verify2Out, JSON.stringify({ songs: songs.length, records: verify2Records }));
      log(`--verify2: ${verify2Records.length} windows' keys saved to ${verify2Out}`);
    };
    if (!skip('windows')) await windows();
    if (!skip('nights')) await nights();
    if (!skip('unknown')) await unknown();

    // -----------------------------------------------------------------------------------------
    async function windows() {
      console.log(
        "\n## 10 s windows (correct over the indexed tracks' queries; wrong = another song on top; false = any play on a query of a track outside the index)\n",
      );
      console.log(`| room | split | ${snrs.map((s) => `crowd ${s > 0 ? '+' : ''}${s} dB`).join(' | ')} |`);
      console.log(`|---|---|${snrs.map(() => '---|').join('')}`);
      const random = rng(42);
      const excerpts = [];
      for (const [k, track] of [...inIndex, ...outOfIndex].entries()) {
        for (let p = 0; p < positions; p++) {
          excerpts.push({
            track,
            start: 3 + random() * Math.max(0, track.duration - 3 - 13),
            truth: k < inIndex.length ? k + 1 : null,
          });
        }
      }
      // One reel per room: every excerpt (2 s of lead-in, so the reverberation is built up, then
      // the 10 s query) with 3 s of silence after, through the room once; the queries are cut out.
      const lead = 2;
      const gap = 3;
      const clips = excerpts.map(({ track, start }) =>
        ffmpegToPcm(ffmpeg, ['-ss', String(start - lead), '-t', String(lead + 10), '-i', track.file]),
      );
      const slot = (lead + 10 + gap) * RATE;
      const reel = new Float32Array(slot * clips.length);
      for (const [i, clip] of clips.entries()) reel.set(clip.subarray(0, (lead + 10) * RATE), i * slot);
      const diagnosed = [];
      const globalRows = [];
      const allSketched = [];
      let singlePeaks = null;
      if (globalPeaks) {
        const { ref, bucket, tol } = globalPeaks;
        const kept = new Map();
        for (const [id, verified] of peaksOf) {
          const peaks = ref.hashed ? hashedOf.get(id) : verified;
          kept.set(id, { ...peaksModule.keepDensity(peaks, ref.density), frames: peaks.frames });
        }
        singlePeaks = new SinglePeakIndex(kept, { bucket, tol, windowFrames: matcher.WINDOW_FRAMES });
        let hours = 0;
        for (const peaks of peaksOf.values()) hours += (peaks.frames * params.FRAME_SECONDS) / 3600;
        globalRows.push(
          `single-peak index: ${singlePeaks.entries} peaks of ${hours.toFixed(1)} h, ${(singlePeaks.bytes() / 2 ** 20 / hours).toFixed(2)} MB per hour as held here`,
        );
      }
      const sketchRows = [];
      let sketched = null;
      if (sketch) {
        const kept = new Map();
        for (const [id, peaks] of hashedOf)
          kept.set(id, { ...peaksModule.keepDensity(peaks, params.REFERENCE_PEAKS), frames: peaks.frames });
        const index = new PeakSketchIndex(kept, sketch);
        sketched = { index, vote: new PeakVote(kept, { bucket: 2, tol: 0.35 }) };
        let hours = 0;
        for (const peaks of peaksOf.values()) hours += (peaks.frames * params.FRAME_SECONDS) / 3600;
        sketchRows.push(
          `sketch: ${index.segments} segments of ${index.bands} bands (${index.words} words) for ${hours.toFixed(1)} h, ${(index.bytes() / 2 ** 20 / hours).toFixed(3)} MB per hour`,
        );
      }
      const totals = { tuning: snrs.map(() => [0, 0, 0, 0, 0]), 'held-out': snrs.map(() => [0, 0, 0, 0, 0]) };
      for (const [r, room] of rooms.entries()) {
        const cells = [];
        for (const [s, snr] of snrs.entries()) {
          const crowd = crowdFor(beds.get(room.name), reel.length, rng(700 + r * 10 + s));
          const recorded = inRoom(reel, room, crowd, snr, { ffmpeg, scratch, seed: 31 + r });
          const pcm = await toEngine(recorded);
          const rate = engine.FINGERPRINT_SAMPLE_RATE;
          let correct = 0;
          let wrong = 0;
          let falses = 0;
          let known = 0;
          let unknownCount = 0;
          const misses = [];
          const unheard = [];
          const sketchedUnheard = [];
          const tripletMatches = [];
          for (const [i, excerpt] of excerpts.entries()) {
            const from = Math.round((i * (lead + 10 + gap) + lead) * rate);
            const query = pcm.slice(from, from + 10 * rate);
            const plays = await engine.recognizeWith(source, query);
            const top = [...plays].sort((a, b) => b.confidence - a.confidence)[0];
            if (excerpt.truth === null) {
              unknownCount++;
              if (plays.length) falses++;
            } else {
              known++;
              if (top?.songId === excerpt.truth) correct++;
              else if (top) wrong++;
              if (top?.songId !== excerpt.truth && process.argv.includes('--diagnose'))
                misses.push(await diagnose(query, excerpt));
            }
            if (verify2Out)
              verify2Records.push({
                room: room.name,
                snr,
                truth: excerpt.truth,
                top: top?.songId ?? null,
                ...(await secondFeature(query, excerpt)),
              });
            if (singlePeaks && !top) unheard.push(await globalCandidates(query, excerpt, singlePeaks));
            if (triplets && excerpt.truth !== null) {
              const { hashed } = peaksModule.extractPeakSets(
                query,
                params.QUERY_PEAKS,
                params.QUERY_VERIFY_PEAKS,
              );
              const trueOffset = Math.round(excerpt.start / params.FRAME_SECONDS);
              tripletMatches.push({
                heard: top?.songId === excerpt.truth,
                ...trueKeyMatches(
                  hashesModule.hashPeaks(hashed, { a: 1, pitch: false }, params.QUERY_TARGETS),
                  triplets.keys[excerpt.truth - 1],
                  triplets.classes,
                  trueOffset,
                ),
              });
            }
            if (sketched && !top) sketchedUnheard.push(await sketchCandidates(query, excerpt, sketched));
          }
          const t = totals[room.split][s];
          t[0] += correct;
          t[1] += known;
          t[2] += wrong;
          t[3] += falses;
          t[4] += unknownCount;
          cells.push(
            `${pct(correct, known)} (${correct}/${known}), ${wrong} wrong, ${falses}/${unknownCount} false`,
          );
          log(`${room.name} ${snr} dB: ${correct}/${known}`);
          if (misses.length) diagnosed.push(`${room.name}, ${snr} dB: ${summarise(misses)}`);
          if (singlePeaks) globalRows.push(`${room.name}, ${snr} dB: ${summariseGlobal(unheard)}`);
          if (triplets) triplets.rows.push({ name: `${room.name}, ${snr} dB`, matches: tripletMatches });
          if (sketched) {
            sketchRows.push(`${room.name}, ${snr} dB: ${summariseSketch(sketchedUnheard)}`);
            allSketched.push(...sketchedUnheard);
          }
        }
        console.log(`| ${room.name} | ${room.split} | ${cells.join(' | ')} |`);
      }
      for (const split of ['tuning', 'held-out']) {
        const cells = totals[split].map(
          ([c, k, w, f, u]) => `**${pct(c, k)} (${c}/${k})**, ${w} wrong, ${f}/${u} false`,
        );
        if (totals[split][0][1] > 0) console.log(`| all ${split} rooms | ${split} | ${cells.join(' | ')} |`);
      }
      if (verify2Out) saveVerify2();
      if (diagnosed.length) {
        console.log('\nWindows missed (--diagnose):\n');
        for (const line of diagnosed) console.log(`- ${line}`);
      }
      if (globalRows.length) {
        console.log(
          `\nWindows no song is heard in, candidates by single peaks (--global-peaks ${globalPeaksOption}, the cheapest ${globalPeaksCheapest} of the window's peaks):\n`,
        );
        for (const line of globalRows) console.log(`- ${line}`);
      }
      if (triplets) reportTriplets(triplets);
      if (sketchRows.length) {
        sketchRows.push(`every room: ${summariseSketch(allSketched)}`);
        console.log(
          `\nWindows no song is heard in, candidates by a peak sketch (--sketch ${sketchOption}):\n`,
        );
        for (const line of sketchRows) console.log(`- ${line}`);
      }
    }

    /**
     * --triplets: per room and noise, over the indexed tracks' windows with a pair vote near their
     * offset: the true song's pair matches at its key whose bucket is of each class (the stop
     * list's classes of a tripletSongs-song index), and the share a triplet keeps; its votes that
     * come only from buckets above 1, 2, 3, 4 x the mean, and the share a triplet keeps.
     */
    function reportTriplets({ rows }) {
      console.log(
        `\nThe true song's pair matches at its key by bucket class of a ${tripletSongs}-song index, and those a triplet keeps (exact; near: its third within a frame and a frequency step) (--triplets):\n`,
      );
      const header = CLASS_NAMES.map((name) => `matches ${name} (triplet; near)`).join(' | ');
      const votes = [1, 2, 3, 4].map((c) => `votes only above ${c}x (triplet)`).join(' | ');
      console.log(`| room | windows (heard) | votes median | ${header} | ${votes} |`);
      console.log(
        `|---|---|---|${CLASS_NAMES.map(() => '---|').join('')}${[1, 2, 3, 4].map(() => '---|').join('')}`,
      );
      const all = [];
      const line = (name, matches) => {
        const found = matches.filter((m) => m.votes !== undefined);
        const sum = (key, c) => found.reduce((s, m) => s + m[key][c], 0);
        const share = (a, b) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);
        const cells = CLASS_NAMES.map(
          (_, c) =>
            `${sum('hits', c)} (${share(sum('kept', c), sum('hits', c))}; ${share(sum('keptNear', c), sum('hits', c))})`,
        );
        const lost = [1, 2, 3, 4].map((c) => {
          const total = found.reduce((s, m) => s + m.votes, 0);
          return `${share(sum('lost', c), total)} (${share(sum('saved', c), sum('lost', c))})`;
        });
        console.log(
          `| ${name} | ${found.length}/${matches.length} (${matches.filter((m) => m.heard).length}) | ${quantile(
            found.map((m) => m.votes),
            0.5,
          )} | ${cells.join(' | ')} | ${lost.join(' | ')} |`,
        );
      };
      for (const { name, matches } of rows) {
        line(name, matches);
        all.push(...matches);
      }
      line('all', all);
    }

    /** Songs voted for (each at its offset, no warp) verified in a 10 s window, best first. */
    async function verifiedAtOffsets(verified, top) {
      const grids = await source.gridsOf(top.map((c) => c.songId));
      return top
        .map((c) => ({
          songId: c.songId,
          score: matcher.verifyCandidate(verified, 0, matcher.WINDOW_FRAMES, grids.get(c.songId), {
            warp: 0,
            offset: c.offset,
          }).score,
        }))
        .sort((x, y) => y.score - x.score);
    }

    /**
     * --sketch: a window no song is heard in, every song ranked by its sketch (PeakSketchIndex.rank),
     * the true song's rank, and for each K of --sketch-top the first K searched by single peaks
     * (PeakVote) and the first 3 of those verified at their offsets (no warp), with the CPU of both.
     */
    async function sketchCandidates(query, excerpt, { index, vote }) {
      const { hashed, verified } = peaksModule.extractPeakSets(
        query,
        params.QUERY_PEAKS,
        params.QUERY_VERIFY_PEAKS,
      );
      let before = process.cpuUsage();
      const { songs: ranked } = index.rank(hashed, matcher.WINDOW_FRAMES);
      let used = process.cpuUsage(before);
      const sketchMs = (used.user + used.system) / 1000;
      const tops = [];
      for (const k of sketchTops) {
        before = process.cpuUsage();
        const { songs: voted, votes } = vote.vote(
          hashed,
          matcher.WINDOW_FRAMES,
          ranked.slice(0, k).map((c) => c.songId),
        );
        used = process.cpuUsage(before);
        const top = voted.slice(0, 3);
        const heard = await verifiedAtOffsets(verified, top);
        tops.push({ heard, votes, voteMs: (used.user + used.system) / 1000 });
      }
      return {
        truth: excerpt.truth,
        rank: ranked.findIndex((c) => c.songId === excerpt.truth),
        tops,
        sketchMs,
      };
    }

    function summariseSketch(unheard) {
      const missed = unheard.filter((u) => u.truth !== null);
      const outside = unheard.filter((u) => u.truth === null);
      const ranked = (k) => missed.filter((u) => u.rank >= 0 && u.rank < k).length;
      const perTop = sketchTops.map((k, n) => {
        const at = (threshold) => {
          const best = (u) => u.tops[n].heard.find((h) => h.score >= threshold);
          const gained = missed.filter((u) => best(u)?.songId === u.truth).length;
          const wrong = missed.filter((u) => best(u) && best(u).songId !== u.truth).length;
          const falses = outside.filter((u) => best(u)).length;
          return `at ${threshold}: +${gained}, ${wrong} wrong, ${falses}/${outside.length} false`;
        };
        const impostors = unheard.map((u) =>
          Math.max(-99, ...u.tops[n].heard.filter((h) => h.songId !== u.truth).map((h) => h.score)),
        );
        const voteMs = quantile(
          unheard.map((u) => u.tops[n].voteMs),
          0.5,
        );
        return `first ${k} voted: ${at(params.MIN_SCORE)}; ${at(40)}; best other song ${Math.max(...impostors)}; vote CPU median ${voteMs.toFixed(2)} ms`;
      });
      return (
        `${missed.length} missed: the true song first / in the first 10 / 20 / 50: ${ranked(1)} / ${ranked(10)} / ${ranked(20)} / ${ranked(50)}; ` +
        `${perTop.join('; ')}; sketch CPU median ${quantile(
          unheard.map((u) => u.sketchMs),
          0.5,
        ).toFixed(1)} ms`
      );
    }

    /**
     * --global-peaks: a window no song is heard in, its candidates by single peaks against every
     * song (SinglePeakIndex.vote), the true song's rank among them, and the first
     * --global-peaks-top verified at their offsets (no warp), with the CPU of the vote.
     */
    async function globalCandidates(query, excerpt, singlePeaks) {
      const { hashed, verified } = peaksModule.extractPeakSets(
        query,
        params.QUERY_PEAKS,
        params.QUERY_VERIFY_PEAKS,
      );
      const voters = peaksModule.keepDensity(
        globalPeaks.query.hashed ? hashed : verified,
        globalPeaks.query.density,
      );
      const before = process.cpuUsage();
      const { songs: voted, votes } = singlePeaks.vote(
        globalPeaksCheapest < 1 ? singlePeaks.cheapest(voters, globalPeaksCheapest) : voters,
      );
      const used = process.cpuUsage(before);
      const top = voted.slice(0, globalPeaksTop);
      const heard = await verifiedAtOffsets(verified, top);
      return {
        truth: excerpt.truth,
        rank: voted.findIndex((c) => c.songId === excerpt.truth),
        heard,
        votes,
        cpuMs: (used.user + used.system) / 1000,
      };
    }

    function summariseGlobal(unheard) {
      const missed = unheard.filter((u) => u.truth !== null);
      const outside = unheard.filter((u) => u.truth === null);
      const ranked = (k) => missed.filter((u) => u.rank >= 0 && u.rank < k).length;
      const at = (threshold) => {
        const best = (u) => u.heard.find((h) => h.score >= threshold);
        const gained = missed.filter((u) => best(u)?.songId === u.truth).length;
        const wrong = missed.filter((u) => best(u) && best(u).songId !== u.truth).length;
        const falses = outside.filter((u) => best(u)).length;
        return `at ${threshold}: +${gained}, ${wrong} wrong, ${falses}/${outside.length} false`;
      };
      const impostors = unheard.map((u) =>
        Math.max(-99, ...u.heard.filter((h) => h.songId !== u.truth).map((h) => h.score)),
      );
      return (
        `${missed.length} missed: the true song first / in the first 3 / 10 / 50: ${ranked(1)} / ${ranked(3)} / ${ranked(10)} / ${ranked(50)}; ` +
        `the first ${globalPeaksTop} verified ${at(params.MIN_SCORE)}; ${at(40)}; best other song ${Math.max(...impostors)}; ` +
        `votes a window median ${quantile(
          unheard.map((u) => u.votes),
          0.5,
        )}, CPU median ${quantile(
          unheard.map((u) => u.cpuMs),
          0.5,
        ).toFixed(0)} ms`
      );
    }

    /**
     * Why a window missed its song, from the engine's own steps: the true song's best key (votes
     * at one warp and offset, as the candidates are counted) and its rank among every song with
     * two votes or more; its score at that key; and its score verified at the offset the excerpt
     * was cut at (no warp), which says whether verification or the votes lost it.
     */
    async function diagnose(query, excerpt) {
      const { hashed, verified } = peaksModule.extractPeakSets(
        query,
        params.QUERY_PEAKS,
        params.QUERY_VERIFY_PEAKS,
      );
      const perWarp = params.WARPS.map((warp) => hashesModule.hashPeaks(hashed, warp, params.QUERY_TARGETS));
      const maxBucket = Math.max(
        params.STOP_MIN,
        (params.STOP_FACTOR * index.size) / hashesModule.HASH_SPACE,
      );
      const all = matcher.indexCandidates(perWarp, index, 0, 0, maxBucket, Number.POSITIVE_INFINITY, 2);
      const rank = all.findIndex((c) => c.songId === excerpt.truth);
      const grid = (await source.gridsOf([excerpt.truth])).get(excerpt.truth);
      const at = (candidate) =>
        matcher.verifyCandidate(verified, 0, matcher.WINDOW_FRAMES, grid, candidate).score;
      const trueOffset = Math.round(excerpt.start / params.FRAME_SECONDS);
      // The warp nearest the speed the song was played at (nights; 1 for the rooms' excerpts).
      const speed = excerpt.speed ?? 1;
      let warp = 0;
      for (const [w, candidate] of params.WARPS.entries())
        if (
          (candidate.a === 1 || candidate.pitch === Boolean(excerpt.pitch)) &&
          Math.abs(candidate.a - speed) < Math.abs(params.WARPS[warp].a - speed)
        )
          warp = w;
      return {
        votes: rank < 0 ? 0 : all[rank].votes,
        candidate: rank >= 0 && rank < params.CANDIDATES && all[rank].votes >= params.MIN_CANDIDATE_VOTES,
        keyScore: rank < 0 ? 0 : at(all[rank]),
        trueScore: at({ warp, offset: trueOffset }),
      };
    }

    /**
     * --verify2: every key the window's search tries (the pairs' candidates and their keys, the
     * second chance's, and the single-peak offsets of the first PEAK_SONGS songs, as detectWindow,
     * probeDetections and peakDetections try them; a 10 s query has no pool), each verified by its
     * peaks (verifyCandidate, no early exit) and by sub-fingerprints (verify2.mjs: at the key and the
     * least of the 25 settles); for an indexed track's window also the true song at the offset it
     * was cut at (the oracle of --diagnose) and misaligned by ±1, ±2 frames and ±1 % tempo.
     */
    async function secondFeature(query, excerpt) {
      const { hashed, verified } = peaksModule.extractPeakSets(
        query,
        params.QUERY_PEAKS,
        params.QUERY_VERIFY_PEAKS,
      );
      const maxBucket = Math.max(
        params.STOP_MIN,
        (params.STOP_FACTOR * index.size) / hashesModule.HASH_SPACE,
      );
      const perWarp = params.WARPS.map((warp) => hashesModule.hashPeaks(hashed, warp, params.QUERY_TARGETS));
      const pairs = matcher.indexCandidates(perWarp, index, 0, 0, maxBucket);
      const probes = matcher.indexCandidates(
        [hashesModule.probeHashes(hashed, params.QUERY_TARGETS)],
        index,
        0,
        0,
        maxBucket,
      );
      const keys = [
        ...pairs.map((c) => ({ ...c, via: 'pairs' })),
        ...probes.map((c) => ({ ...c, via: 'probe' })),
      ];
      const W = matcher.WINDOW_FRAMES;
      const songIds = [...new Set([...keys.map((k) => k.songId), ...(excerpt.truth ? [excerpt.truth] : [])])];
      const grids = await source.gridsOf(songIds);
      const firstSongs = [...new Set(pairs.map((c) => c.songId))].slice(0, params.PEAK_SONGS);
      for (const songId of firstSongs) {
        const skipped = pairs.filter((c) => c.songId === songId && c.warp === 0).map((c) => c.offset);
        for (const offset of matcher.peakOffsets(
          verified,
          0,
          W,
          grids.get(songId),
          0,
          params.PEAK_OFFSETS,
          skipped,
        ))
          keys.push({ songId, warp: 0, offset, votes: 0, via: 'peaks' });
      }
      const frames = Math.floor((query.length - params.FFT_SIZE) / params.HOP) + 1;
      const spec = powerFrames(query, {
        rate: params.SAMPLE_RATE,
        hop: params.HOP,
        fftSize: params.FFT_SIZE,
        frames,
      });
      const bitsAt = new Map();
      const queryBits = (scale) => {
        if (!bitsAt.has(scale))
          bitsAt.set(scale, subFingerprints(bandEnergies(spec, bandEdges(scale)), frames, spec.valid));
        return bitsAt.get(scale);
      };
      const c = Math.round(W / 2);
      let second = 0;
      let secondMs = 0;
      const score = (songId, a, pitch, offset) => {
        const started = performance.now();
        const result = scoreKey(queryBits(pitch ? a : 1), bitsOf.get(songId), c, a, offset);
        secondMs += performance.now() - started;
        second++;
        return result;
      };
      const trueOffset = Math.round(excerpt.start / params.FRAME_SECONDS);
      const tried = keys.map((key) => {
        const { a, pitch } = params.WARPS[key.warp];
        const centre = Math.round(c * a) + key.offset;
        return {
          songId: key.songId,
          via: key.via,
          warp: key.warp,
          votes: key.votes,
          // (the true song within 3 frames of the place its excerpt was cut at: its own key)
          place:
            key.songId !== excerpt.truth
              ? 'other'
              : Math.abs(centre - (c + trueOffset)) <= 3
                ? 'true'
                : 'elsewhere',
          peaks: matcher.verifyCandidate(verified, 0, W, grids.get(key.songId), key).score,
          ...score(key.songId, a, pitch, key.offset),
        };
      });
      let oracle = null;
      if (excerpt.truth) {
        const grid = grids.get(excerpt.truth);
        // (a tempo misalignment about the window's centre: the centre stays at the true place)
        const at = (offset, scale) => ({
          peaks: matcher.verifyCandidate(verified, 0, W, grid, { warp: 0, offset }).score,
          ...score(excerpt.truth, scale, false, offset + c - Math.round(c * scale)),
        });
        oracle = {
          at: at(trueOffset, 1),
          misaligned: {
            '-2': at(trueOffset - 2, 1),
            '-1': at(trueOffset - 1, 1),
            '+1': at(trueOffset + 1, 1),
            '+2': at(trueOffset + 2, 1),
            '-1%': at(trueOffset, 0.99),
            '+1%': at(trueOffset, 1.01),
          },
        };
      }
      return { oracle, tried, cost: { second, secondMs } };
    }

    function summarise(misses) {
      const candidates = misses.filter((m) => m.candidate);
      const verifiable = misses.filter((m) => m.trueScore >= params.MIN_SCORE);
      return (
        `${misses.length} missed: ${misses.length - candidates.length} no candidate (true song's best key: ` +
        `median ${quantile(
          misses.map((m) => m.votes),
          0.5,
        )} votes), ${candidates.length} candidates verified under ` +
        `${params.MIN_SCORE} at their key (median ${quantile(
          candidates.map((m) => m.keyScore),
          0.5,
        )}); verified at the ` +
        `true offset, ${verifiable.length} score ${params.MIN_SCORE} or more (median ${quantile(
          misses.map((m) => m.trueScore),
          0.5,
        )})`
      );
    }

    // -----------------------------------------------------------------------------------------
    async function nights() {
      const nightRooms = rooms.filter((room) => room.split === nightSplit);
      if (nightRooms.length === 0) return;
      const perNight = (nightHours * 3600) / nightCount;
      const outside = [...outOfIndex, ...unknownTracks];
      // Every song's length in frames (its peaks'), for the rules that bound a play by it.
      const songFrames = {};
      for (const [id, peaks] of peaksOf)
        songFrames[id] = peaks.count === 0 ? 0 : peaks.t[peaks.count - 1] + 1;
      const records = [];
      const missed = [];
      for (let n = 0; n < nightCount; n++) {
        if (onlyNights && !onlyNights.includes(n + 1)) continue;
        const room = nightRooms[n % nightRooms.length];
        const snr = n % 2 === 0 ? 5 : 0;
        const random = rng(2024 + n + (nightSplit === 'tuning' ? 100 : 0));
        const night = buildNight(perNight, random, outside);
        if (nightLimit > 0) {
          night.mix = night.mix.subarray(0, Math.min(night.mix.length, nightLimit * RATE));
          night.truth = night.truth
            .filter((t) => t.start < nightLimit)
            .map((t) => ({ ...t, end: Math.min(t.end, nightLimit) }));
        }
        const crowd = crowdFor(beds.get(room.name), night.mix.length, random);
        // Masked stretches: the crowd 12 dB louder for 15-40 s (cheering, an announcement), about
        // one every 12 minutes.
        for (
          let at = Math.floor(random() * 720 * RATE);
          at < crowd.length;
          at += Math.floor((360 + random() * 720) * RATE)
        ) {
          const length = Math.min(crowd.length - at, Math.round((15 + 25 * random()) * RATE));
          for (let i = 0; i < length; i++) crowd[at + i] *= 4;
        }
        const recorded = inRoom(night.mix, room, crowd, snr, { ffmpeg, scratch, seed: 77 + n });
        night.mix = null;
        // As a phone uploads it: Opus 128 kbit/s.
        const wav = path.join(work, 'night.wav');
        writeWav(wav, recorded);
        const opus = path.join(work, 'night.opus');
        execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '128k', opus]);
        fs.rmSync(wav);
        const pcm = await decodeAudio(opus, {
          sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
          ffmpegPath: ffmpeg,
        });
        fs.rmSync(opus);
        const started = performance.now();
        const { chunks, verifications } = await chunkDetections(pcm);
        if (tracking) log(`night ${n + 1}: ${verifications} verifications of tracked hypotheses`);
        const seconds = pcm.length / engine.FINGERPRINT_SAMPLE_RATE;
        const speed = seconds / ((performance.now() - started) / 1000);
        records.push({ night: n + 1, room: room.name, snr, seconds, speed, truth: night.truth, chunks });
        if (process.argv.includes('--diagnose'))
          missed.push(...(await diagnoseMissed(records.at(-1), pcm, songFrames)));
        if (windowTraceOn) for (const line of await windowTrace(records.at(-1), pcm)) console.log(line);
        log(`night ${n + 1} (${room.name}, ${snr} dB) recognised at ${speed.toFixed(0)}x`);
      }
      if (detectionsOut) {
        fs.writeFileSync(
          detectionsOut,
          JSON.stringify({ nightSplit, songs: songs.length, songFrames, records }),
        );
        log(`window detections written to ${detectionsOut}`);
      }
      reportNights(records, { engine, params, timeline, songFrames, matcher });
      if (missed.length) {
        console.log(
          `\nLibrary plays missed (--diagnose), each of their 10 s windows (hop 5 s) verified as recognition does it: candidate = the true song among the window's ${params.CANDIDATES} candidates; at its key = its score there; true = its score verified at its true position and nearest warp:\n`,
        );
        for (const line of missed) console.log(`- ${line}`);
      }
    }

    /**
     * The library plays of a night that the server's path (playsOf, today's rules) missed, window
     * by window: whether the true song was a candidate, its score at its key, and its score
     * verified at its true position (the DJ starts every song 2 s in; its speed as played).
     */
    async function diagnoseMissed(record, pcm, songFrames) {
      const rate = engine.FINGERPRINT_SAMPLE_RATE;
      const variant = {
        bound: params.EVIDENCE_BOUND,
        gap: timeline.MERGE_GAP_SECONDS,
        rules: 'on',
        crossfade: timeline.CROSSFADE_SECONDS,
        fill: timeline.FILL_SECONDS,
        reach: timeline.REACH_SECONDS,
        reachMin: timeline.REACH_MIN_SECONDS,
        reachConfidence: timeline.REACH_MAX_CONFIDENCE,
        history: 0,
      };
      const plays = playsOf(record.chunks, variant, { engine, params, timeline, songFrames });
      const lines = [];
      for (const t of record.truth) {
        if (t.songId === null) continue;
        if (plays.some((p) => p.songId === t.songId && p.start < t.end && p.end > t.start)) continue;
        const cells = [];
        let candidates = 0;
        let true30 = 0;
        let true15 = 0;
        let windows = 0;
        for (let w = Math.max(0, t.start); w + 10 <= t.end; w += 4.992) {
          const query = pcm.slice(Math.round(w * rate), Math.round((w + 10) * rate));
          const position = 2 + (w - t.start) * t.speed;
          const d = await diagnose(query, {
            truth: t.songId,
            start: position,
            speed: t.speed,
            pitch: t.pitch,
          });
          windows++;
          if (d.candidate) candidates++;
          if (d.trueScore >= params.MIN_SCORE) true30++;
          if (d.trueScore >= params.WEAK_SCORE) true15++;
          cells.push(
            `${(w - t.start).toFixed(0)}s ${d.candidate ? `cand ${d.keyScore.toFixed(0)}` : `${d.votes}v`}/${d.trueScore.toFixed(0)}`,
          );
        }
        lines.push(
          `night ${record.night} (${record.room}, ${record.snr > 0 ? '+' : ''}${record.snr} dB) song ${t.songId} at ${t.start.toFixed(0)}-${t.end.toFixed(0)} s (speed ${t.speed.toFixed(3)}${t.pitch ? ', pitch moved' : ''}): ${windows} windows, the song a candidate in ${candidates}, true position scoring 15+ in ${true15}, 30+ in ${true30} (window: candidate and score at its key, or its votes / true score): ${cells.join(', ')}`,
        );
      }
      return lines;
    }

    /**
     * --window-trace: the plays of --trace-songs in a night, window by window as each chunk's
     * windowDetections places them (local 0, 5, ... s of the chunk's signal, which begins with the
     * 20 s tail of the chunk before): the true song's votes at its true key (nearest warp, ±3
     * frames) and its best key's, its rank among the songs with 2 votes, its score verified at its
     * true position (nearest warp / no warp), and the chunk's own detection of it. Per chunk, the
     * song's votes pooled over the chunk's signal at its true key (distinct anchor frames, the
     * position advancing at its true speed) against the best pooled key of any other song.
     */
    async function windowTrace(record, pcm) {
      const rate = engine.FINGERPRINT_SAMPLE_RATE;
      const F = params.FRAME_SECONDS;
      const half = Math.round(matcher.WINDOW_FRAMES / 2);
      const maxBucket = Math.max(
        params.STOP_MIN,
        (params.STOP_FACTOR * index.size) / hashesModule.HASH_SPACE,
      );
      const lines = [];
      const chunkCache = new Map();
      const chunkOf = (k) => {
        if (chunkCache.has(k)) return chunkCache.get(k);
        const chunk = record.chunks[k];
        const signal = pcm.subarray(
          Math.round(chunk.begin * rate),
          Math.round((chunk.begin + chunk.seconds) * rate),
        );
        const { hashed, verified } = peaksModule.extractPeakSets(
          signal,
          params.QUERY_PEAKS,
          params.QUERY_VERIFY_PEAKS,
        );
        const perWarp = params.WARPS.map((warp) =>
          hashesModule.hashPeaks(hashed, warp, params.QUERY_TARGETS),
        );
        const value = { verified, perWarp };
        chunkCache.clear();
        chunkCache.set(k, value);
        return value;
      };
      for (const t of record.truth) {
        if (!traceSongs.includes(t.songId)) continue;
        const id = t.songId;
        const grid = (await source.gridsOf([id])).get(id);
        let near = 0;
        for (const [w, c] of params.WARPS.entries())
          if (
            (c.a === 1 || c.pitch === Boolean(t.pitch)) &&
            Math.abs(c.a - t.speed) < Math.abs(params.WARPS[near].a - t.speed)
          )
            near = w;
        // The song's frame at a stream second (the DJ starts every song 2 s in).
        const refAt = (sec) => (2 + (sec - t.start) * t.speed) / F;
        lines.push(
          `\nwindow trace: night ${record.night} song ${id} at ${t.start.toFixed(0)}-${t.end.toFixed(0)} s (speed ${t.speed.toFixed(3)}${t.pitch ? ' pitch' : ''}, nearest warp ${params.WARPS[near].a}${params.WARPS[near].pitch ? 'p' : ''})`,
        );
        for (const [k, chunk] of record.chunks.entries()) {
          if (chunk.begin > t.end || chunk.begin + chunk.seconds < t.start) continue;
          const { verified, perWarp } = chunkOf(k);
          const frames = chunk.frames;
          const starts = [];
          for (let s = 0; s + matcher.WINDOW_FRAMES < frames; s += matcher.WINDOW_HOP) starts.push(s);
          const lastStart = Math.max(0, frames - matcher.WINDOW_FRAMES);
          if (starts.at(-1) !== lastStart) starts.push(lastStart);
          const cells = [];
          for (const start of starts) {
            const at = chunk.begin + start * F;
            if (at < t.start - 5 || at + 10 > t.end + 5) continue;
            const centre = start + half;
            const ref = refAt(chunk.begin + centre * F);
            const offsetAt = (w) => Math.round(ref) - Math.round(centre * params.WARPS[w].a);
            const all = matcher.indexCandidates(
              perWarp,
              index,
              0,
              start,
              maxBucket,
              Number.POSITIVE_INFINITY,
              2,
              1e9,
              Number.POSITIVE_INFINITY,
            );
            const order = [...new Set(all.map((c) => c.songId))];
            const rank = order.indexOf(id);
            const keys = all.filter((c) => c.songId === id);
            const best = keys.length ? Math.max(...keys.map((c) => c.votes)) : 0;
            const atTrue = Math.max(
              0,
              ...keys
                .filter((c) => c.warp === near && Math.abs(c.offset - offsetAt(near)) <= 3)
                .map((c) => c.votes),
            );
            const score = (w) =>
              matcher.verifyCandidate(verified, start, start + matcher.WINDOW_FRAMES, grid, {
                warp: w,
                offset: offsetAt(w),
              }).score;
            const det = chunk.detections.find((d) => d.songId === id && d.window === start);
            const detPos = det
              ? ((Math.round(centre * params.WARPS[det.warp].a) + det.offset - ref) * F).toFixed(0)
              : '';
            cells.push(
              `${at.toFixed(0)}s@${(start * F).toFixed(0)}: v${atTrue}/${best} r${rank < 0 ? '-' : rank + 1} s${score(near).toFixed(0)}/${score(0).toFixed(0)}${det ? ` D${det.score.toFixed(0)}@${detPos}` : ''}`,
            );
          }
          // Pooled votes over the chunk's signal: the true song at its moving true key, and every
          // song's best fixed key (±1 frame, distinct anchor frames) at any warp.
          const matches = matcher.collectMatches(perWarp, index, 0, maxBucket);
          const pooled = new Map();
          const trueFrames = new Set();
          for (let w = 0; w < params.WARPS.length; w++) {
            const table = new Map();
            for (let i = matches.warpStart[w]; i < matches.warpStart[w + 1]; i++) {
              const sw = matches.songWarp[i];
              const song = sw >> 5;
              const off = matches.offset[i];
              const tq = matches.t[i];
              if (song === id && w === near) {
                const expected = Math.round(refAt(chunk.begin + tq * F)) - Math.round(tq * params.WARPS[w].a);
                if (Math.abs(off - expected) <= 2) trueFrames.add(tq);
              }
              const key = song * 100000 + off + 50000;
              const e = table.get(key);
              if (!e) table.set(key, { n: 1, last: tq });
              else if (e.last !== tq) {
                e.n++;
                e.last = tq;
              }
            }
            for (const [key, e] of table) {
              const total = e.n + (table.get(key - 1)?.n ?? 0) + (table.get(key + 1)?.n ?? 0);
              const song = Math.floor(key / 100000);
              if (total > (pooled.get(song) ?? 0)) pooled.set(song, total);
            }
          }
          const others = [...pooled.entries()]
            .filter(([s]) => s !== id)
            .map(([, n]) => n)
            .sort((x, y) => y - x);
          lines.push(
            `  chunk ${k} (${chunk.begin.toFixed(0)}-${(chunk.begin + chunk.seconds).toFixed(0)} s): pooled true ${trueFrames.size} (its best fixed key ${pooled.get(id) ?? 0}), others' best ${others.slice(0, 3).join('/')}, 10th ${others[9]}; ${cells.join(' | ')}`,
          );
        }
      }
      return lines;
    }

    /** A DJ set of about `seconds`: [{ songId|null, start, end }] and its mix at RATE. */
    function buildNight(seconds, random, outside) {
      const pieces = [];
      let total = 0;
      let k = 0;
      const library = [...inIndex].sort(() => random() - 0.5);
      while (total < seconds) {
        // Every 3rd to 5th song is one the library lacks.
        const out = k > 0 && random() < 0.25;
        const track = out ? outside[Math.floor(random() * outside.length)] : library[k++ % library.length];
        const length = Math.min(track.duration - 5, 150 + random() * 90);
        const kind = random();
        const factor = 0.94 + random() * 0.12;
        const filters = [`aformat=channel_layouts=mono`, `aresample=${RATE}`];
        if (kind < 0.25)
          filters.push(`atempo=${factor.toFixed(3)}`); // key-locked tempo change
        else if (kind < 0.4) filters.push(`asetrate=${Math.round(RATE * factor)}`, `aresample=${RATE}`); // speed
        const samples = ffmpegToPcm(ffmpeg, [
          '-ss',
          '2',
          '-t',
          String(length),
          '-i',
          track.file,
          '-af',
          filters.join(','),
        ]);
        const fade = Math.round((4 + 6 * random()) * RATE);
        // How fast the song's position advances, and whether its pitch moved with it.
        const speed = kind < 0.4 ? factor : 1;
        const pitch = kind >= 0.25 && kind < 0.4;
        pieces.push({
          samples,
          songId: out ? null : songIdOf.get(track.id),
          fade,
          name: track.id,
          speed,
          pitch,
        });
        total += samples.length / RATE - fade / RATE;
      }
      let length = 0;
      for (const [i, piece] of pieces.entries()) length += piece.samples.length - (i > 0 ? piece.fade : 0);
      const mix = new Float32Array(length);
      const truth = [];
      let at = 0;
      for (const [i, piece] of pieces.entries()) {
        const fadeIn = i > 0 ? piece.fade : 0;
        const fadeOut = i < pieces.length - 1 ? pieces[i + 1].fade : 0;
        const start = at - fadeIn;
        const n = piece.samples.length;
        for (let j = 0; j < n; j++) {
          let gain = 1;
          if (j < fadeIn) gain = j / fadeIn;
          if (j >= n - fadeOut) gain = Math.min(gain, (n - j) / fadeOut);
          mix[start + j] += gain * piece.samples[j];
        }
        truth.push({
          songId: piece.songId,
          name: piece.name,
          start: start / RATE,
          end: (start + n) / RATE,
          speed: piece.speed,
          pitch: piece.pitch,
        });
        at = start + n;
      }
      return { mix, truth, masked: [] };
    }

    /**
     * The server's path, its recognising part: 30 s chunks, each with the 20 s tail before it, and
     * each chunk's window detections (as recognizeWith makes them); playsOf builds the plays.
     */
    async function chunkDetections(pcm) {
      // The lowest bound asked tells every tracked play the others keep (playsOf).
      const bounds = trackBoundsOption
        ? trackBoundsOption
            .split(',')
            .map(Number)
            .filter((x) => x > 0)
        : [];
      const bound = bounds.length ? Math.min(...bounds) : undefined;
      const track = tracking ? { ...trackVariants[0].options, bound } : { maxAlive: 0 };
      const variants = tracking ? trackVariants.slice(1).map((v) => ({ ...v.options, bound })) : [];
      return streamChunks(engine, source, pcm, track, variants, trackingModule.trackChunk);
    }

    // -----------------------------------------------------------------------------------------
    async function unknown() {
      const held = rooms.filter((room) => room.split === 'held-out');
      const music = [...outOfIndex];
      let listed = outOfIndex.reduce((s, t) => s + t.duration, 0);
      for (const track of unknownTracks) {
        if (listed >= unknownHours * 3600) break;
        music.push(track);
        listed += track.duration;
      }
      let seconds = 0;
      const falsePlays = [];
      const chains = [];
      let recogniseMs = 0;
      for (const [k, track] of music.entries()) {
        const room = held[k % held.length];
        const samples = ffmpegToPcm(ffmpeg, [
          '-i',
          track.file,
          '-af',
          `aformat=channel_layouts=mono,aresample=${RATE}`,
        ]);
        const crowd = crowdFor(beds.get(room.name), samples.length, rng(900 + k));
        const pcm = await toEngine(inRoom(samples, room, crowd, 5, { ffmpeg, scratch, seed: 300 + k }));
        seconds += pcm.length / engine.FINGERPRINT_SAMPLE_RATE;
        const started = performance.now();
        const frames = Math.floor((pcm.length - 1024) / 256) + 1;
        const { detections } = await engine.windowDetections(source, pcm, engine.windowScoreFor(frames));
        const plays = engine.timelineOf(detections, frames, pcm.length / engine.FINGERPRINT_SAMPLE_RATE);
        recogniseMs += performance.now() - started;
        // --verify2: the track's 10 s windows one after another (no audio shared), each window's
        // keys as secondFeature tries them (music outside the index: every key an impostor).
        if (verify2Out) {
          const step = 10 * engine.FINGERPRINT_SAMPLE_RATE;
          for (let from = 0; from + step <= pcm.length; from += step)
            verify2Records.push({
              room: room.name,
              snr: 5,
              truth: null,
              top: null,
              guard: true,
              ...(await secondFeature(pcm.slice(from, from + step), { truth: null, start: 0 })),
            });
        }
        for (const play of plays)
          falsePlays.push(
            `  false play: ${track.id} (${track.origin}, ${room.name}) ${play.startS}-${play.endS} s heard as song ${play.songId} (confidence ${play.confidence})`,
          );
        // Every chain of windows that spans two windows sharing no audio, confirmed or not: the
        // evidence chance gives.
        for (const chain of matcher.chainDetections(detections, Number.POSITIVE_INFINITY, {
          minScore: Number.POSITIVE_INFINITY,
          evidenceBound: 1e-9,
        }))
          chains.push({
            evidence: chain.evidence,
            name: `${track.id} (${room.name}) as song ${chain.songId} at ${(chain.first * params.FRAME_SECONDS).toFixed(0)} s`,
          });
        if (k % 20 === 19) log(`unknown: ${k + 1}/${music.length} tracks, ${falsePlays.length} false plays`);
      }
      chains.sort((a, b) => b.evidence - a.evidence);
      console.log(
        `\n## Music outside the index, whole tracks through the held-out rooms in turn (crowd +5 dB)\n\n` +
          `${music.length} tracks, ${(seconds / 3600).toFixed(2)} h: **${falsePlays.length} false plays = ${((falsePlays.length * 36000) / seconds).toFixed(2)} per 10 h**; ` +
          `recognised at ${((seconds * 1000) / recogniseMs).toFixed(0)}x real time. Chance chains spanning two windows that share no audio: ${chains.length}; ` +
          `strongest evidence ${chains
            .slice(0, 5)
            .map((c) => c.evidence.toFixed(1))
            .join(', ')} (bound ${params.EVIDENCE_BOUND})`,
      );
      for (const c of chains.slice(0, 5)) console.log(`  chain ${c.evidence.toFixed(1)}: ${c.name}`);
      for (const line of falsePlays) console.log(line);
      if (verify2Out) saveVerify2();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

/**
 * The nights' figures from their chunks' window detections: the plays built as the server builds
 * them (playsOf), once per variant ({ bound: evidence bound, gap: merge gap in seconds }).
 */
function reportNights(records, { engine, params, timeline, songFrames, matcher }) {
  const boundList = boundsOption ? boundsOption.split(',').map(Number) : [params.EVIDENCE_BOUND];
  const gapList = gapsOption ? gapsOption.split(',').map(Number) : [timeline.MERGE_GAP_SECONDS];
  const ruleList = rulesOption ? rulesOption.split(',') : ['on'];
  const crossfadeList = crossfadesOption
    ? crossfadesOption.split(',').map(Number)
    : [timeline.CROSSFADE_SECONDS];
  const fillList = fillsOption ? fillsOption.split(',').map(Number) : [timeline.FILL_SECONDS];
  const reachList = reachesOption ? reachesOption.split(',').map(Number) : [timeline.REACH_SECONDS];
  const reachMinList = reachMinsOption
    ? reachMinsOption.split(',').map(Number)
    : [timeline.REACH_MIN_SECONDS];
  const reachConfidenceList = reachConfidencesOption
    ? reachConfidencesOption.split(',').map(Number)
    : [timeline.REACH_MAX_CONFIDENCE];
  const historyList = historiesOption ? historiesOption.split(',').map(Number) : [0];
  // Tracked plays kept from each bound (0: none); the server's TRACK_BOUND unless asked.
  const trackList = trackBoundsOption ? trackBoundsOption.split(',').map(Number) : [engine.TRACK_BOUND];
  // Every (evidence bound, merge gap, rules, crossfade, fill, reach) combination, on the same
  // window detections.
  const variants = boundList.flatMap((bound) =>
    gapList.flatMap((gap) =>
      ruleList.flatMap((rules) =>
        crossfadeList.flatMap((crossfade) =>
          fillList.flatMap((fill) =>
            reachList.flatMap((reach) =>
              reachMinList.flatMap((reachMin) =>
                reachConfidenceList.flatMap((reachConfidence) =>
                  historyList.flatMap((history) =>
                    trackList.flatMap((track) =>
                      trackVariants.flatMap((_, back) =>
                        trackEndBounds.map((endBound) => ({
                          bound,
                          gap,
                          rules,
                          crossfade,
                          fill,
                          reach,
                          reachMin,
                          reachConfidence,
                          history,
                          track,
                          back,
                          endBound,
                        })),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  const label = (v) =>
    [
      boundList.length > 1 ? `bound ${v.bound}` : '',
      gapList.length > 1 ? `merge gap ${v.gap} s` : '',
      ruleList.length > 1 ? `rules ${v.rules}` : '',
      crossfadeList.length > 1 ? `crossfade ${v.crossfade} s` : '',
      fillList.length > 1 ? `fill ${v.fill} s` : '',
      reachList.length > 1 ? `reach ${v.reach} s` : '',
      reachMinList.length > 1 ? `reach from ${v.reachMin} s` : '',
      reachConfidenceList.length > 1 ? `reach under confidence ${v.reachConfidence}` : '',
      historyList.length > 1 ? `history ${v.history} s` : '',
      trackList.length > 1 ? `track bound ${v.track}` : '',
      trackVariants.length > 1 ? `tracking '${trackVariants[v.back].name}'` : '',
      trackEndBounds.length > 1 ? `end bound ${v.endBound}` : '',
    ]
      .filter(Boolean)
      .join(', ');
  const sums = variants.map(() => ({
    seconds: 0,
    truePlays: 0,
    found: 0,
    predictedOnTrue: 0,
    falsePlays: 0,
    starts: [],
    ends: [],
    lines: [],
  }));
  console.log(
    `\n## Nights in the ${nightSplit} rooms (${records.length} nights; the server's path: 30 s chunks + 20 s tail, mergeDetections; evidence bound ${variants[0].bound}, merge gap ${variants[0].gap} s, rules ${variants[0].rules}, crossfade ${variants[0].crossfade} s)\n`,
  );
  console.log(
    '| night | room | crowd | hours | library plays | found | plays per true play | false plays | start error median / p90 | end error median / p90 | recognised at |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const row = (e) =>
    `${e.truePlays} | ${e.found} = ${pct(e.found, e.truePlays)} | ${(e.predictedOnTrue / Math.max(1, e.found)).toFixed(3)} | ` +
    `${typeof e.falsePlays === 'number' ? e.falsePlays : e.falsePlays.length} | ${quantile(e.starts, 0.5).toFixed(1)} / ${quantile(e.starts, 0.9).toFixed(1)} s | ` +
    `${quantile(e.ends, 0.5).toFixed(1)} / ${quantile(e.ends, 0.9).toFixed(1)} s`;
  const total = (b, sum) =>
    `| **all${variants.length > 1 ? `, ${label(variants[b])}` : ''}** | ${nightSplit} | | **${(sum.seconds / 3600).toFixed(2)}** | ${row(sum)} (${((sum.falsePlays * 36000) / sum.seconds).toFixed(2)} per 10 h) | |`;
  for (const record of records) {
    for (const [b, variant] of variants.entries()) {
      const e = evaluate(
        record.truth,
        playsOf(record.chunks, variant, { engine, params, timeline, songFrames, matcher }),
      );
      const sum = sums[b];
      sum.seconds += record.seconds;
      sum.truePlays += e.truePlays;
      sum.found += e.found;
      sum.predictedOnTrue += e.predictedOnTrue;
      sum.falsePlays += e.falsePlays.length;
      sum.starts.push(...e.starts);
      sum.ends.push(...e.ends);
      for (const line of [...e.misses, ...e.fragments, ...e.falsePlays, ...(verbose ? e.errors : [])])
        sum.lines.push(`night ${record.night}: ${line}`);
      if (trace)
        for (const t of e.missed) sum.lines.push(`night ${record.night}: ${traceOf(record, t, params)}`);
      if (trace && b === 0)
        for (const t of record.truth.filter((x) => traceSongs.includes(x.songId)))
          sum.lines.push(`night ${record.night}: ${traceOf(record, t, params)}`);
      if (b === 0)
        console.log(
          `| ${record.night} | ${record.room} | ${record.snr > 0 ? '+' : ''}${record.snr} dB | ${(record.seconds / 3600).toFixed(2)} | ${row(e)} | ${record.speed.toFixed(0)}x |`,
        );
    }
  }
  for (const [b, sum] of sums.entries()) console.log(total(b, sum));
  for (const line of sums[0].lines) console.log(`  ${line}`);
}

/**
 * The server's path, its play-building part: each chunk's window detections made plays
 * (timelineOf), mapped to the recording's time (libraryDetections) and merged into its timeline
 * by mergeDetections, with the variant's evidence bound, merge gap, crossfade and play rules
 * ('on': as the server; 'no-ends': as the server before a play's fill was bounded by its song's
 * end (filled to the next play's start); 'starts': plays start where their song began, no join
 * by position; 'joins': the reverse; 'off': neither, the song's start not even told, and no gap
 * filled). The songs' lengths reach the plays as the server's recognizeWith adds them.
 */
function playsOf(
  chunks,
  {
    bound: evidenceBound,
    gap,
    rules,
    crossfade,
    fill,
    reach,
    reachMin,
    reachConfidence,
    history,
    track,
    back = 0,
    endBound = 0,
  },
  { engine, params, timeline, songFrames },
) {
  let plays = [];
  const F = params.FRAME_SECONDS;
  // --histories: the stream's window detections so far, each window once: a window of a chunk's
  // 20 s tail is heard again by the next chunk (its window grid 0.05 s later), and only the
  // latest chunk's hearing of it counts (two hearings of the same audio would give chance two
  // tries). A chunk's own windows are kept up to half a hop before the next chunk's window begins.
  const heard = [];
  const halfHop = (params.FRAME_SECONDS * Math.round(5 / params.FRAME_SECONDS)) / 2;
  for (const [k, chunk] of chunks.entries()) {
    let signal = chunk;
    if (history > 0) {
      const nextBegin = chunks[k + 1]?.begin ?? Number.POSITIVE_INFINITY;
      for (const d of chunk.detections)
        heard.push({ d, begin: chunk.begin, at: chunk.begin + d.window * F, until: nextBegin - halfHop });
      // The chunk's signal extended back by `history` seconds: its detections' frames from there.
      const from = Math.max(0, chunk.begin - history);
      const base = Math.round(from / F);
      const detections = heard
        .filter((h) => h.at >= from && (h.begin === chunk.begin || h.at < h.until))
        .map(({ d, begin }) => {
          const shift = Math.round(begin / F) - base;
          const a = params.WARPS[d.warp].a;
          return {
            ...d,
            first: d.first + shift,
            last: d.last + shift,
            window: d.window + shift,
            offset: d.offset - a * shift,
          };
        });
      const seconds = chunk.begin + chunk.seconds - base * F;
      signal = { detections, frames: Math.round(seconds / F), seconds, begin: base * F };
    }
    // The songs' lengths as the server's recognizeWith adds them (from their peaks' frames).
    const found = engine.withSongSeconds(
      engine.timelineOf(signal.detections, signal.frames, signal.seconds, { evidenceBound }),
      (songId) => songFrames[songId],
    );
    const pieces = [{ startS: 0, endS: signal.seconds, startAtMs: signal.begin * 1000 }];
    let detections = timeline.libraryDetections(found, pieces);
    if (rules === 'off') detections = detections.map(({ songStartMs: _, ...rest }) => rest);
    const merge = {
      gapSeconds: gap,
      streamStartMs: 0,
      songStarts: rules === 'on' || rules === 'no-ends' || rules === 'starts',
      continuity: rules === 'on' || rules === 'no-ends' || rules === 'joins',
      crossfadeSeconds: crossfade,
      fillSeconds: rules === 'off' ? 0 : fill,
      songEnds: rules === 'on',
      // The chunks are recognised in order: the stream is heard to this chunk's end.
      heardUntilMs: (chunk.begin + chunk.seconds) * 1000,
      reachSeconds: reach,
      reachMinSeconds: reachMin,
      reachMaxConfidence: reachConfidence,
    };
    plays = timeline.mergeDetections(plays, detections, merge).plays;
    // The plays the stream's tracking told in this chunk (evidence at the variant's bound), after
    // the chunk's own, as recognition-chunk.ts merges them (in the chunk's own signal's seconds).
    const told = back === 0 ? (chunk.tracked ?? []) : chunk.trackedBy[back - 1];
    const tracked =
      track > 0
        ? told.filter(
            (p) =>
              engine.reachesBound({ confirmed: true, ...p }, track) ||
              (endBound > 0 &&
                p.evidence >= endBound &&
                p.songSeconds !== null &&
                p.songSeconds - p.songToS <= trackEndGap),
          )
        : [];
    if (tracked.length > 0) {
      const own = [{ startS: 0, endS: chunk.seconds, startAtMs: chunk.begin * 1000 }];
      let extra = timeline.trackedDetections(plays, tracked, own);
      if (rules === 'off') extra = extra.map(({ songStartMs: _, ...rest }) => rest);
      plays = timeline.mergeDetections(plays, extra, merge).plays;
    }
  }
  return plays.map((p) => ({
    songId: p.songId,
    start: p.startMs / 1000,
    end: p.endMs / 1000,
    confidence: p.confidence,
  }));
}

function evaluate(truth, predicted) {
  const overlap = (a0, a1, b0, b1) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  const library = truth.filter((t) => t.songId !== null);
  const used = new Set();
  const starts = [];
  const ends = [];
  const misses = [];
  const fragments = [];
  const errors = [];
  const missed = [];
  let found = 0;
  let predictedOnTrue = 0;
  for (const play of library) {
    const matching = predicted
      .map((p, i) => ({ p, i, o: overlap(play.start, play.end, p.start, p.end) }))
      .filter((c) => c.p.songId === play.songId && c.o > 0)
      .sort((a, b) => b.o - a.o);
    if (matching.length === 0) {
      missed.push(play);
      misses.push(
        `missed: song ${play.songId} (${play.name}) at ${play.start.toFixed(0)}-${play.end.toFixed(0)} s`,
      );
      continue;
    }
    found++;
    predictedOnTrue += matching.length;
    if (matching.length > 1)
      fragments.push(
        `${matching.length} plays for song ${play.songId} at ${play.start.toFixed(0)}-${play.end.toFixed(0)} s: ${matching.map((c) => `${c.p.start.toFixed(0)}-${c.p.end.toFixed(0)}`).join(', ')}`,
      );
    for (const c of matching) used.add(c.i);
    starts.push(Math.abs(matching[0].p.start - play.start));
    ends.push(Math.abs(matching[0].p.end - play.end));
    errors.push(
      `song ${play.songId} at ${play.start.toFixed(0)}-${play.end.toFixed(0)} s: ${matching.map((c) => `${c.p.start.toFixed(0)}-${c.p.end.toFixed(0)}`).join(', ')} (start ${(matching[0].p.start - play.start).toFixed(1)} s, end ${(matching[0].p.end - play.end).toFixed(1)} s)`,
    );
  }
  const falsePlays = predicted
    .filter((_, i) => !used.has(i))
    .map((p) => {
      const during = truth
        .filter((t) => t.start < p.end && t.end > p.start)
        .map((t) => `${t.songId ?? 'outside'} (${t.name})`)
        .join(', ');
      return `false play: song ${p.songId} at ${p.start.toFixed(0)}-${p.end.toFixed(0)} s (confidence ${p.confidence}) while playing ${during || 'nothing'}`;
    });
  return {
    truePlays: library.length,
    found,
    predictedOnTrue,
    falsePlays,
    starts,
    ends,
    misses,
    missed,
    fragments,
    errors,
  };
}

/**
 * --trace: a missed play's song as the stream heard it: the chunks' window detections of it
 * (stream seconds, score, and the song position they imply against the true one: the DJ starts
 * every song 2 s in), and the evidence its tracked hypotheses told (every bound asked).
 */
function traceOf(record, play, params) {
  const F = params.FRAME_SECONDS;
  const heard = [];
  const told = new Map();
  for (const chunk of record.chunks) {
    for (const d of chunk.detections) {
      const at = chunk.begin + d.window * F;
      if (d.songId !== play.songId || at < play.start - 10 || at > play.end) continue;
      const centre = d.window + Math.round(5 / F);
      const position = (Math.round(centre * params.WARPS[d.warp].a) + d.offset) * F;
      const truePosition = 2 + (chunk.begin + centre * F - play.start) * play.speed;
      heard.push(`${at.toFixed(0)}s:${d.score.toFixed(0)}@${(position - truePosition).toFixed(0)}`);
    }
    for (const p of chunk.tracked ?? []) {
      if (p.songId !== play.songId || chunk.begin + p.startS > play.end || chunk.begin + p.endS < play.start)
        continue;
      const key = Math.round(chunk.begin + p.songStartS);
      told.set(
        key,
        `${(chunk.begin + p.startS).toFixed(0)}-${(chunk.begin + p.endS).toFixed(0)}s evidence ${p.evidence}`,
      );
    }
  }
  return `trace of song ${play.songId} at ${play.start.toFixed(0)}-${play.end.toFixed(0)} s: windows (start:score@position error s) ${heard.join(' ') || 'none'}; tracked: ${[...told.values()].join(', ') || 'none'}`;
}
