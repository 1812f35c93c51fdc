import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { FINGERPRINT_SAMPLE_RATE } from '../audio/fingerprint/index.js';
import { addNoise, synthSong } from '../audio/fingerprint/synth.js';
import { floatWav, monoWav } from '../audio/wav.js';

/**
 * The devices of `api.ts --uploaders`, run in a worker thread of the benchmark: their chunks are
 * made before the first upload and their HTTP clients run off the server's event loop, as real
 * recorders run on other machines. Before 2026-11-26 they ran on the server's own thread, and
 * making each 30 s chunk (480,000 samples) there held that thread for about 25 ms per upload
 * (805 ms of 48 s of CPU in one profiled run), counted in the uploads timed meanwhile.
 */
export interface UploadersData {
  url: string;
  token: string;
  count: number;
  chunkSeconds: number;
  realtime: boolean;
  /** Synthetic songs (seeds) in the library's index: the devices record them (none: notes). */
  songSeeds: number[];
}

/** What the worker posts when told to stop. */
export interface UploadersReport {
  latencies: number[];
  failures: [number, number][];
  seconds: number;
}

/** Seconds of each synthetic song of the library (api.ts --index-songs). */
export const SYNTH_SONG_SECONDS = 180;

/** The event the devices' recordings belong to (made for the day by the first upload). */
export const UPLOAD_EVENT_NAME = 'Upload benchmark night';

/** Distinct chunks made per device: consecutive chunks differ, as a recording's do. */
const CHUNKS_PER_DEVICE = 4;

/** `seconds` at 16 kHz of notes that change every 0.4 s (distinct per seed): music the library lacks. */
export function benchChunk(seconds: number, seed: number): Buffer {
  const rate = 16_000;
  return monoWav(rate, seconds * rate, (i) => {
    const hz = 200 + ((Math.floor(i / (rate * 0.4)) * 7919 + seed * 104_729) % 900);
    return 0.4 * 32767 * Math.sin((2 * Math.PI * hz * i) / rate);
  });
}

/** Chunk `n` of a device recording synthetic song `seed` in a room (+6 dB over the crowd). */
function songChunk(seconds: number, seed: number, n: number): Buffer {
  const song = synthSong(seed, SYNTH_SONG_SECONDS, FINGERPRINT_SAMPLE_RATE);
  const fits = Math.max(1, Math.floor(SYNTH_SONG_SECONDS / seconds));
  const from = (n % fits) * seconds * FINGERPRINT_SAMPLE_RATE;
  const excerpt = song.subarray(from, from + seconds * FINGERPRINT_SAMPLE_RATE);
  return floatWav(addNoise(excerpt, 6, seed * 7 + n), FINGERPRINT_SAMPLE_RATE);
}

/**
 * The WAV as the web recorder sends it: WebM/Opus at 48 kHz, 96 kbit/s (apps/web/src/lib/recorder.ts;
 * the device recorder sends Ogg/Opus). Encoded by ffmpeg (FFMPEG_PATH) before the first upload.
 */
function webmOpus(wavBytes: Buffer): Buffer {
  const encoded = spawnSync(
    process.env.FFMPEG_PATH || 'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'pipe:0',
      '-ar',
      '48000',
      '-c:a',
      'libopus',
      '-b:a',
      '96k',
      '-f',
      'webm',
      'pipe:1',
    ],
    { input: wavBytes, maxBuffer: 64 * 2 ** 20, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  if (encoded.status !== 0) throw new Error(`ffmpeg could not encode a chunk: ${encoded.stderr.toString()}`);
  return encoded.stdout;
}

async function run(data: UploadersData, port: NonNullable<typeof parentPort>) {
  const { url, token, count, chunkSeconds, realtime, songSeeds } = data;
  const chunks = Array.from({ length: count }, (_, u) =>
    Array.from({ length: CHUNKS_PER_DEVICE }, (_, n) =>
      webmOpus(
        songSeeds.length > 0
          ? songChunk(chunkSeconds, songSeeds[u % songSeeds.length]!, n)
          : benchChunk(chunkSeconds, u * 1000 + n),
      ),
    ),
  );
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  let stopping = false;
  port.once('message', () => {
    stopping = true;
  });
  const startedAt = performance.now();
  const device = async (u: number) => {
    // Recorders started at once would send in step; each starts at its own moment in the first chunk.
    if (realtime) await sleep((u / count) * chunkSeconds * 1000);
    for (let n = 0; !stopping; n += 1) {
      const dueAt = performance.now() + chunkSeconds * 1000;
      const form = new FormData();
      const metadata = {
        session_id: `load-${u}-${startedAt}`,
        chunk_number: n,
        duration_seconds: chunkSeconds,
        source: 'bench',
        // A recording without an event keeps its audio unrecognised until one is assigned.
        event_name: UPLOAD_EVENT_NAME,
      };
      form.append('metadata', JSON.stringify(metadata));
      const chunk = chunks[u]![n % CHUNKS_PER_DEVICE]!;
      form.append('audio_file', new Blob([chunk], { type: 'audio/webm' }), `chunk-${n}.webm`);
      const sentAt = performance.now();
      const response = await fetch(`${url}/api/recordings/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.ok) latencies.push(performance.now() - sentAt);
      else failures.set(response.status, (failures.get(response.status) ?? 0) + 1);
      if (realtime) {
        while (!stopping && performance.now() < dueAt) await sleep(Math.min(250, dueAt - performance.now()));
      }
    }
  };
  port.postMessage('ready');
  await Promise.all(Array.from({ length: count }, (_, u) => device(u)));
  const report: UploadersReport = {
    latencies,
    failures: [...failures],
    seconds: (performance.now() - startedAt) / 1000,
  };
  port.postMessage(report);
}

if (parentPort && (workerData as { uploaders?: UploadersData } | null)?.uploaders) {
  await run((workerData as { uploaders: UploadersData }).uploaders, parentPort);
}
