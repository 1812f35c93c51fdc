#!/usr/bin/env node
// Recognition at library scale (issue 23: 10,000 and 30,000 songs), the engine alone in one
// process: the benchmark's indexed tracks (.cache/recognition, fetched by
// scripts/bench/recognition.mjs' corpus) and fillers up to each size of --songs (time-reversed,
// pitch-moved copies of their peaks, which no query can match; recognition/fillers.mjs) in the
// in-memory index, every song's peaks in memory. For each size it prints:
//
// - the index: entries, build time (mergeIndex of every song, what a process does when it loads
//   the library), its memory (entries and buckets, MB per hour of indexed audio);
// - 10 s queries (PA chain + crowd +5 dB, --positions per track, indexed or not), each decoded
//   through the product's ffmpeg helper and recognised once: wall and CPU time (median, p90),
//   times real time per core by CPU time (the machine is shared: CPU time is what one core
//   spends), correct / wrong / false;
// - 30 s Opus chunks (--chunks of them) end to end as the server's recognition job handles
//   one: decoded, then recognised together with the 20 s of audio before it (50 s of signal),
//   the stream's tracked hypotheses (those the 20 s before seeded) verified in its windows.
//
// Prints figures; asserts nothing.
//   node scripts/bench/recognition-scale.mjs [--songs 10000,30000] [--positions 2] [--chunks 20]
//     [--no-track] (the chunks recognised without the stream's tracking)
//     [--compare] (each 10 s query also recognised without the second chance for the windows no
//     song is heard in, in alternating order: its cost, measured in one process)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ensureNodeModules, ensureSystemPackages, repoRoot, runMain } from '../ensure.mjs';
import { addNoise, ffmpegToPcm, RATE, ROOM, roomQueries, writeWav } from './recognition/audio.mjs';
import { buildTracks, splitTracks } from './recognition/corpus.mjs';
import { fillerSong } from './recognition/fillers.mjs';

const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const sizes = String(option('--songs', '10000,30000')).split(',').map(Number);
const positions = Number(option('--positions', 2));
const chunkCount = Number(option('--chunks', 20));
const noTrack = process.argv.includes('--no-track');
const compare = process.argv.includes('--compare');
const mean = (values) => values.reduce((sum, x) => sum + x, 0) / values.length;
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const log = (message) => process.stderr.write(`[scale] ${message}\n`);
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

runMain(async () => {
  ensureNodeModules();
  ensureSystemPackages(['ffmpeg']);
  ensureBuilt();
  const dist = (file) => import(pathToFileURL(path.join(repoRoot, 'apps/server/dist', file)).href);
  const engine = await dist('audio/fingerprint/index.js');
  const { FRAME_SECONDS } = await dist('audio/fingerprint/params.js');
  const memoryIndex = await dist('audio/fingerprint/memory-index.js');
  const { mergeIndex, emptyIndex } = memoryIndex;
  // (the layout of before 2026-11-26: two int32 an entry)
  const indexBytes =
    memoryIndex.indexBytes ??
    ((index) => ({ entries: index.entries.byteLength, fixed: index.offsets.byteLength }));
  const { peakGrid } = await dist('audio/fingerprint/matcher.js');
  const { decodeAudio } = await dist('audio/decode.js');
  const cacheDir = path.join(repoRoot, '.cache/recognition');
  const { inIndex, outOfIndex } = splitTracks(buildTracks(cacheDir, { ffmpeg, ffprobe: 'ffprobe', log }));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-scale-'));
  const decode = (file) =>
    decodeAudio(file, { sampleRate: engine.FINGERPRINT_SAMPLE_RATE, ffmpegPath: ffmpeg });
  try {
    // Queries and chunks first, while this process is small: making them forks it (ffmpeg).
    const queries = roomQueries({ inIndex, outOfIndex, positions, snrDb: 5, work, ffmpeg });
    // A chunk: 30 s of a track from 50 s on, as a phone uploads it (Opus 128 kbit/s), and the
    // 20 s before it (the tail the server keeps from the chunk before, already decoded).
    const chunks = [];
    for (const [k, track] of inIndex.slice(0, chunkCount).entries()) {
      const opus = path.join(work, `chunk-${k}.opus`);
      const tail = path.join(work, `tail-${k}.wav`);
      const piece = ffmpegToPcm(ffmpeg, ['-ss', '30', '-t', '50', '-i', track.file, '-af', ROOM]);
      const noisy = addNoise(piece, 5, 100 + k);
      writeWav(tail, noisy.subarray(0, 20 * RATE));
      const wav = path.join(work, `chunk-${k}.wav`);
      writeWav(wav, noisy.subarray(20 * RATE));
      execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '128k', opus]);
      fs.rmSync(wav);
      chunks.push({ opus, tail: await decode(tail), truth: k + 1 });
    }
    log(`${queries.length} queries and ${chunks.length} chunks made`);

    // The real tracks, indexed once.
    const real = [];
    let realSeconds = 0;
    for (const track of inIndex) {
      const samples = await decode(track.file);
      realSeconds += samples.length / engine.FINGERPRINT_SAMPLE_RATE;
      real.push(engine.indexSignal(samples));
    }
    console.log(
      `# Recognition at scale (${new Date().toISOString()}; ${os.cpus().length} cores, load ${load()}; ` +
        `${queries.length} queries of 10 s, PA + crowd +5 dB, ${chunks.length} chunks of 30 s)`,
    );
    for (const target of sizes) {
      const songs = [];
      const grids = new Map();
      let seconds = realSeconds;
      for (const [k, indexed] of real.entries()) {
        songs.push({ songId: k + 1, revision: 1, hashes: indexed.hashes });
        grids.set(k + 1, peakGrid(indexed.peaks));
      }
      for (let i = 0; songs.length < target; i++) {
        const { peaks, hashes } = fillerSong(real, i, engine.referenceHashes);
        const songId = songs.length + 1;
        songs.push({ songId, revision: 1, hashes });
        grids.set(songId, peakGrid(peaks));
        seconds += peaks.frames * FRAME_SECONDS;
      }
      global.gc?.();
      const t0 = performance.now();
      const index = mergeIndex(emptyIndex(), new Set(), songs);
      const buildMs = performance.now() - t0;
      songs.length = 0;
      global.gc?.();
      const hours = seconds / 3600;
      const bytes = indexBytes(index);
      log(`${target} songs: index built in ${(buildMs / 1000).toFixed(1)} s`);
      const source = { index, gridsOf: async (ids) => new Map(ids.map((id) => [id, grids.get(id)])) };

      const wall = [];
      const cpu = [];
      let correct = 0;
      let wrong = 0;
      let falses = 0;
      let known = 0;
      // (--compare: each query also recognised without the second chance, in alternating order)
      const cpuWithout = [];
      for (const [q, { file, truth }] of queries.entries()) {
        const pcm = await decode(file);
        const without = async () => {
          const c0 = cpuMs();
          await engine.recognizeWith(source, pcm, { secondChance: false });
          cpuWithout.push(cpuMs() - c0);
        };
        if (compare && q % 2 === 0) await without();
        const c0 = cpuMs();
        const w0 = performance.now();
        const plays = await engine.recognizeWith(source, pcm);
        wall.push(performance.now() - w0);
        cpu.push(cpuMs() - c0);
        if (compare && q % 2 === 1) await without();
        const top = [...plays].sort((a, b) => b.confidence - a.confidence)[0];
        if (truth === null) falses += plays.length > 0 ? 1 : 0;
        else {
          known++;
          if (top?.songId === truth) correct++;
          else if (top) wrong++;
        }
      }
      const chunkWall = [];
      const chunkCpu = [];
      let chunkFound = 0;
      for (const { opus, tail, truth } of chunks) {
        // The stream's tracking after the chunk before (here: its tail alone), as the server keeps
        // it; the chunk is then recognised as the server's job does (recognizeStream).
        const { tracking } = await engine.recognizeStreamWith(source, tail, {
          tailSamples: 0,
          tracking: null,
        });
        const c0 = cpuMs();
        const w0 = performance.now();
        const pcm = await decode(opus);
        const window = new Float32Array(tail.length + pcm.length);
        window.set(tail, 0);
        window.set(pcm, tail.length);
        // (--no-track: recognised as the server did before it tracked)
        const plays = noTrack
          ? await engine.recognizeWith(source, window)
          : (await engine.recognizeStreamWith(source, window, { tailSamples: tail.length, tracking })).plays;
        chunkWall.push(performance.now() - w0);
        chunkCpu.push(cpuMs() - c0);
        if (plays.some((play) => play.songId === truth)) chunkFound++;
      }
      const mb = (x) => (x / 2 ** 20).toFixed(0);
      console.log(
        `\n## ${target} songs (${hours.toFixed(0)} h of audio), load ${load()}\n\n` +
          `- index: ${(index.size / 1e6).toFixed(1)} M entries, built in ${(buildMs / 1000).toFixed(1)} s; ` +
          `${mb(bytes.entries)} MB of entries = ${(bytes.entries / 2 ** 20 / hours).toFixed(2)} MB per hour of audio, ` +
          `+ ${mb(bytes.fixed)} MB of buckets and song tables\n` +
          `- 10 s queries: CPU median ${quantile(cpu, 0.5).toFixed(1)} ms = ${(10000 / quantile(cpu, 0.5)).toFixed(0)}x real time per core, ` +
          `p90 ${quantile(cpu, 0.9).toFixed(1)} ms; wall median ${quantile(wall, 0.5).toFixed(1)} ms, p90 ${quantile(wall, 0.9).toFixed(1)} ms; ` +
          `correct ${correct}/${known}, wrong ${wrong}, false ${falses}/${queries.length - known}; ` +
          `CPU mean ${mean(cpu).toFixed(1)} ms${
            compare
              ? ` (without the second chance, the same queries: median ${quantile(cpuWithout, 0.5).toFixed(1)} ms, p90 ${quantile(cpuWithout, 0.9).toFixed(1)} ms, mean ${mean(cpuWithout).toFixed(1)} ms)`
              : ''
          }\n` +
          `- 30 s Opus chunk + 20 s tail, decode + recognise: wall median ${quantile(chunkWall, 0.5).toFixed(0)} ms, ` +
          `p90 ${quantile(chunkWall, 0.9).toFixed(0)} ms (CPU of this process, decoding is the helper's: median ${quantile(chunkCpu, 0.5).toFixed(0)} ms); ` +
          `song found in ${chunkFound}/${chunks.length}\n` +
          `- process peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
      );
      grids.clear();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
