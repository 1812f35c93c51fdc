#!/usr/bin/env node
// The recognition engine alone, without PostgreSQL: the benchmark's indexed tracks (from
// .cache/recognition, fetched by scripts/bench/recognition.mjs) plus fillers up to --songs
// (time-reversed, pitch-moved copies of their peaks, which no query can match) in one in-memory
// index, then 10 s queries (PA chain + crowd noise at --snr dB) of every track, indexed or not,
// each decoded through the product's ffmpeg helper and recognised --reps times. Prints time per
// query (median, p90), correct / false recognitions and the process's peak RSS, then the false
// plays found in about 11 h of music outside the index, whole tracks: the ones kept out of the
// index and other packages' soundtracks (the night's target of at most one per 10 h). A few
// minutes at 1,000 songs, where scripts/bench/recognition.mjs takes twenty: for trying a change
// of the engine, and for library sizes the full benchmark does not build (--songs 10000).
//   node scripts/bench/recognition-engine.mjs [--songs 1000] [--positions 2] [--snr 5] [--reps 1]
//                                             [--unknown-hours 12] [--track]
// --track: the music outside the index recognised as the server recognises a recording (30 s chunks
// with the 20 s tail before, recognition/stream.mjs), the stream's track-before-detect included
// (audio/fingerprint/tracking.ts): false plays are the plays of that path (tracked ones merged as
// recognition-chunk.ts does), and it prints the strongest evidence chance gives the tracked
// hypotheses, the confirmed ones' (a window besides the first seed at the window threshold), which
// TRACK_BOUND must pass, and the unconfirmed ones', which TRACK_BOUND × TRACK_UNCONFIRMED_FACTOR
// must (the chance chains of one whole-track signal are then not measured;
// `--track-variants ';confirmScore=0'` also prints every hypothesis's as confirmed, the rule before).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ensureNodeModules, ensureSystemPackages, repoRoot, runMain } from '../ensure.mjs';
import { addNoise, ffmpegToPcm, RATE, ROOM, roomQueries, writeWav } from './recognition/audio.mjs';
import { buildTracks, buildUnknownTracks, splitTracks } from './recognition/corpus.mjs';
import { fillerSong } from './recognition/fillers.mjs';
import { streamChunks, trackVariantsOf } from './recognition/stream.mjs';

const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const targetSongs = option('--songs', 1000);
const positions = option('--positions', 2);
const snr = option('--snr', 5);
const reps = option('--reps', 1);
const unknownHours = option('--unknown-hours', 12);
const tracking = process.argv.includes('--track');
// --track-variants ';backSeconds=60': the tracking measured as well with other TrackOptions (';'
// between variants; the first is the server's path, whose false plays are counted); --track-end-gap 20:
// the chance evidence of hypotheses whose windows hear their song to within that many seconds of
// its end is reported apart (what a lower bound for them must pass).
const trackVariants = trackVariantsOf(process.argv);
const trackEndGap = option('--track-end-gap', 20);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

runMain(async () => {
  ensureNodeModules();
  ensureSystemPackages(['ffmpeg']);
  ensureBuilt();
  const dist = (file) => import(pathToFileURL(path.join(repoRoot, 'apps/server/dist', file)).href);
  const engine = await dist('audio/fingerprint/index.js');
  const matcher = await dist('audio/fingerprint/matcher.js');
  const { chainDetections } = matcher;
  const timeline = await dist('services/recognition/recognition-timeline.js');
  const trackingModule = await dist('audio/fingerprint/tracking.js');
  const { WEAK_SCORE, EVIDENCE_BOUND, FRAME_SECONDS, MIN_SCORE } = await dist('audio/fingerprint/params.js');
  const { mergeIndex, emptyIndex } = await dist('audio/fingerprint/memory-index.js');
  const { decodeAudio } = await dist('audio/decode.js');
  const cacheDir = path.join(repoRoot, '.cache/recognition');
  const log = (message) => process.stderr.write(`[engine] ${message}\n`);
  const { inIndex, outOfIndex } = splitTracks(buildTracks(cacheDir, { ffmpeg, ffprobe: 'ffprobe', log }));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-engine-'));
  try {
    // Queries first, while this process is small: making them forks it (ffmpeg).
    const queries = roomQueries({ inIndex, outOfIndex, positions, snrDb: snr, work, ffmpeg });
    log(`${queries.length} queries made`);
    const songs = [];
    const peaksOf = new Map();
    const real = [];
    const t0 = performance.now();
    for (const [k, track] of inIndex.entries()) {
      const samples = await decodeAudio(track.file, {
        sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: ffmpeg,
      });
      const indexed = engine.indexSignal(samples);
      songs.push({ songId: k + 1, revision: 1, hashes: indexed.hashes });
      peaksOf.set(k + 1, indexed.peaks);
      real.push(indexed);
    }
    for (let i = 0; songs.length < targetSongs; i++) {
      const { peaks, hashes } = fillerSong(real, i, engine.referenceHashes);
      const songId = songs.length + 1;
      songs.push({ songId, revision: 1, hashes });
      peaksOf.set(songId, peaks);
    }
    const index = mergeIndex(emptyIndex(), new Set(), songs);
    log(
      `index of ${songs.length} songs, ${(index.size / 1e6).toFixed(1)} M entries, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const source = engine.memorySource(index, peaksOf);
    // --track: the hypotheses chance gives tracking, the strongest evidence each reached.
    const trackChances = trackVariants.map(() => new Map());
    const endChances = trackVariants.map(() => new Map());
    let trackVerifications = 0;
    const songFrames = new Proxy({}, { get: (_, id) => (peaksOf.get(Number(id))?.t.at(-1) ?? -1) + 1 });
    const times = [];
    let correct = 0;
    let known = 0;
    let falsePositives = 0;
    let unknown = 0;
    const notes = [];
    for (const { file, truth, name } of queries) {
      let plays = [];
      for (let r = 0; r < reps; r++) {
        // Decoded each time, as the server decodes each chunk just before recognising it.
        const pcm = await decodeAudio(file, {
          sampleRate: engine.FINGERPRINT_SAMPLE_RATE,
          ffmpegPath: ffmpeg,
        });
        const started = performance.now();
        plays = await engine.recognizeWith(source, pcm);
        times.push(performance.now() - started);
      }
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
    // Music the library lacks, whole tracks through the same room, as a night plays it between
    // known songs: the tracks kept out of the index, then the other packages' soundtracks (about
    // 10 h, up to --unknown-hours). Every play found in it is false.
    const unknownMusic = [...outOfIndex];
    let listed = outOfIndex.reduce((sum, track) => sum + track.duration, 0);
    for (const track of buildUnknownTracks(cacheDir, { ffprobe: 'ffprobe', log })) {
      if (listed >= unknownHours * 3600) break;
      unknownMusic.push(track);
      listed += track.duration;
    }
    log(`listening to ${(listed / 3600).toFixed(2)} h of music not in the index`);
    let unknownSeconds = 0;
    let unknownTime = 0;
    const falsePlays = [];
    const chains = [];
    // The best detection's score of each 10 s window of the music outside the index that has one
    // (weak ones too), and the windows in all: windows heard at MIN_SCORE and up are chance that
    // corroboration and evidence must reject.
    const windowBest = [];
    let windowCount = 0;
    // Mono at RATE before the PA chain: three times faster than filtering at the file's own rate.
    const room = `aformat=channel_layouts=mono,aresample=${RATE},${ROOM}`;
    for (const [k, track] of unknownMusic.entries()) {
      const file = path.join(work, 'unknown.wav');
      writeWav(file, addNoise(ffmpegToPcm(ffmpeg, ['-i', track.file, '-af', room]), snr, 100 + k));
      const pcm = await decodeAudio(file, { sampleRate: engine.FINGERPRINT_SAMPLE_RATE, ffmpegPath: ffmpeg });
      unknownSeconds += pcm.length / engine.FINGERPRINT_SAMPLE_RATE;
      const started = performance.now();
      if (tracking) {
        // The server's path: chunk by chunk, every tracked hypothesis told from evidence 1 (the
        // strongest chance gives), those at TRACK_BOUND merged as the server merges them.
        const { chunks, verifications } = await streamChunks(
          engine,
          source,
          pcm,
          { ...trackVariants[0].options, bound: 1 },
          trackVariants.slice(1).map((v) => ({ ...v.options, bound: 1 })),
          trackingModule.trackChunk,
        );
        unknownTime += performance.now() - started;
        trackVerifications += verifications;
        let heard = [];
        for (const chunk of chunks) {
          const pieces = [{ startS: 0, endS: chunk.seconds, startAtMs: chunk.begin * 1000 }];
          const plays = engine.withSongSeconds(
            engine.timelineOf(chunk.detections, chunk.frames, chunk.seconds),
            (songId) => songFrames[songId],
          );
          const merge = { streamStartMs: 0, heardUntilMs: (chunk.begin + chunk.seconds) * 1000 };
          heard = timeline.mergeDetections(heard, timeline.libraryDetections(plays, pieces), merge).plays;
          for (const [v, told] of [chunk.tracked, ...chunk.trackedBy].entries())
            for (const p of told) {
              const at = Math.round((chunk.begin + p.songStartS) / 10);
              // (a hypothesis told unconfirmed, then confirmed, is counted in each: TRACK_CONFIRM_SCORE)
              const key = `${k}|${p.songId}|${at}|${p.confirmed !== false}`;
              const name = `${p.confirmed === false ? 'unconfirmed: ' : ''}${track.id} (${track.origin}) as song ${p.songId} at ${(chunk.begin + p.startS).toFixed(0)}-${(chunk.begin + p.endS).toFixed(0)} s, its ${p.songFromS}-${p.songToS} s of ${p.songSeconds} (best window confidence ${p.confidence})`;
              if ((trackChances[v].get(key)?.evidence ?? 0) < p.evidence)
                trackChances[v].set(key, { evidence: p.evidence, name, confirmed: p.confirmed !== false });
              const toEnd = p.songSeconds !== null && p.songSeconds - p.songToS <= trackEndGap;
              if (toEnd && (endChances[v].get(key)?.evidence ?? 0) < p.evidence)
                endChances[v].set(key, { evidence: p.evidence, name });
            }
          const told = chunk.tracked.filter((p) => engine.reachesBound(p));
          if (told.length > 0)
            heard = timeline.mergeDetections(
              heard,
              timeline.trackedDetections(heard, told, pieces),
              merge,
            ).plays;
        }
        for (const play of heard)
          falsePlays.push(
            `  false play: ${track.id} (${track.origin}) ${(play.startMs / 1000).toFixed(0)}-${(play.endMs / 1000).toFixed(0)} s heard as song ${play.songId} (confidence ${play.confidence})`,
          );
        continue;
      }
      // recognizeWith's two steps, so the window detections also give the chance chains below.
      const frames = Math.floor((pcm.length - 1024) / 256) + 1;
      const { detections } = await engine.windowDetections(source, pcm, engine.windowScoreFor(frames));
      const plays = engine.timelineOf(detections, frames, pcm.length / engine.FINGERPRINT_SAMPLE_RATE);
      unknownTime += performance.now() - started;
      const best = new Map();
      for (const d of detections) best.set(d.window, Math.max(best.get(d.window) ?? 0, d.score));
      windowBest.push(...best.values());
      // (the windows of windowDetections: every WINDOW_HOP frames, and one ending with the signal)
      let last = -1;
      for (let start = 0; start + matcher.WINDOW_FRAMES < frames; start += matcher.WINDOW_HOP, windowCount++)
        last = start;
      if (frames > 0 && last !== Math.max(0, frames - matcher.WINDOW_FRAMES)) windowCount++;
      for (const play of plays)
        falsePlays.push(
          `  false play: ${track.id} (${track.origin}) ${play.startS}-${play.endS} s heard as song ${play.songId} (confidence ${play.confidence})`,
        );
      // Every chain of windows (weak ones too) at one position of a song that spans two windows
      // sharing no audio, confirmed or not: the evidence chance gives, which EVIDENCE_BOUND must pass.
      const all = chainDetections(detections, Number.POSITIVE_INFINITY, {
        minScore: Number.POSITIVE_INFINITY,
        evidenceBound: 1e-9,
      });
      for (const chain of all)
        chains.push({
          evidence: chain.evidence,
          name: `${track.id} (${track.origin}) at ${(chain.first * FRAME_SECONDS).toFixed(0)} s as song ${chain.songId}, best window ${chain.score.toFixed(1)}`,
        });
    }
    times.sort((a, b) => a - b);
    const median = quantile(times, 0.5);
    console.log(
      `${songs.length} songs, 10 s queries, PA + crowd ${snr} dB: median ${median.toFixed(1)} ms = ${(10000 / median).toFixed(0)}x real time, ` +
        `p90 ${quantile(times, 0.9).toFixed(1)} ms; correct ${correct}/${known}, false ${falsePositives}/${unknown}; ` +
        `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    for (const note of notes) console.log(note);
    console.log(
      `Music not in the index, whole tracks (${unknownMusic.length} tracks, ${(unknownSeconds / 3600).toFixed(2)} h, PA + crowd ${snr} dB): ` +
        `${falsePlays.length} false plays = ${((falsePlays.length * 36000) / unknownSeconds).toFixed(2)} per 10 h; ` +
        `recognised at ${((unknownSeconds * 1000) / unknownTime).toFixed(0)}x real time`,
    );
    for (const line of falsePlays) console.log(line);
    if (windowCount > 0) {
      const heard = windowBest.filter((score) => score >= MIN_SCORE).sort((a, b) => b - a);
      console.log(
        `Windows there heard at ${MIN_SCORE} and up (10 s, every 5 s): ${heard.length} of ${windowCount}; ` +
          `at 35 and up ${heard.filter((x) => x >= 35).length}, 40 ${heard.filter((x) => x >= 40).length}; best ${heard
            .slice(0, 8)
            .map((x) => x.toFixed(1))
            .join(', ')}`,
      );
    }
    chains.sort((a, b) => b.evidence - a.evidence);
    console.log(
      `Chance chains there (windows of score ${WEAK_SCORE} and up at one position of a song, spanning two that share no audio): ` +
        `${chains.length}; strongest evidence ${chains
          .slice(0, 5)
          .map((c) => c.evidence.toFixed(1))
          .join(', ')} (EVIDENCE_BOUND ${EVIDENCE_BOUND})`,
    );
    for (const c of chains.slice(0, 5)) console.log(`  chain ${c.evidence.toFixed(1)}: ${c.name}`);
    if (tracking)
      for (const [v, { name: variant }] of trackVariants.entries()) {
        const all = [...trackChances[v].values()].sort((a, b) => b.evidence - a.evidence);
        const top = all.filter((c) => c.confirmed);
        const unconfirmed = all.filter((c) => !c.confirmed);
        const ends = [...endChances[v].values()].sort((a, b) => b.evidence - a.evidence);
        console.log(
          `Tracked hypotheses there (--track${variant ? ` '${variant}'` : ''}, chunk by chunk${v === 0 ? `: ${trackVerifications} verifications at predicted positions` : ''}), windows counted from score ${WEAK_SCORE}: ` +
            `${top.length} confirmed with evidence; strongest ${top
              .slice(0, 8)
              .map((c) => c.evidence.toFixed(1))
              .join(
                ', ',
              )} (TRACK_BOUND ${engine.TRACK_BOUND}); unconfirmed (no window besides the first seed at the window threshold): ${unconfirmed.length}, strongest ${unconfirmed
              .slice(0, 5)
              .map((c) => c.evidence.toFixed(1))
              .join(
                ', ',
              )} (TRACK_BOUND × ${engine.TRACK_UNCONFIRMED_FACTOR}); heard to within ${trackEndGap} s of their song's end: ${ends.length}, strongest ${ends
              .slice(0, 8)
              .map((c) => c.evidence.toFixed(1))
              .join(', ')}`,
        );
        for (const c of [...top.slice(0, 5), ...unconfirmed.slice(0, 3)])
          console.log(`  ${c.evidence.toFixed(1)}: ${c.name}`);
        for (const c of ends.slice(0, 3)) console.log(`  to its end, ${c.evidence.toFixed(1)}: ${c.name}`);
      }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
