/**
 * Chunks decoded by their upload's check, kept for their recognition job in the same process, so a
 * chunk goes through ffmpeg once rather than twice (each run is 0.1-0.2 s of a core here:
 * docs/performance.md, "Start and upload"). Keyed by the recordings store's location and the
 * chunk's key, whose name carries the chunk's content hash: an entry can only ever hold the samples
 * of those very bytes. An entry is handed out once; a job in another process, or a chunk whose job
 * never comes, leaves its entry to the bounds below, and the job decodes the file as before.
 */

/** At most this many chunks (30 s at 8 kHz is 0.96 MB)... */
const MAX_ENTRIES = 32;
/** ...and at most this many samples in all (32 MB of float32). */
const MAX_SAMPLES = 8_000_000;
/** An entry not taken within this time is dropped: its job runs elsewhere, or not at all. */
const MAX_AGE_MS = 5 * 60_000;

interface Entry {
  samples: Float32Array;
  sampleRate: number;
  keptAt: number;
}

const entries = new Map<string, Entry>();
let totalSamples = 0;

const keyOf = (location: string, key: string) => `${location}|${key}`;

function drop(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  totalSamples -= entry.samples.length;
  entries.delete(key);
}

function prune(now: number): void {
  for (const [key, entry] of entries) {
    if (entries.size <= MAX_ENTRIES && totalSamples <= MAX_SAMPLES && now - entry.keptAt <= MAX_AGE_MS) break;
    drop(key); // oldest first: a Map iterates in insertion order
  }
}

/** Keeps a stored chunk's decoded samples for its recognition (over the bounds: not kept). */
export function keepDecodedChunk(
  location: string,
  key: string,
  samples: Float32Array,
  sampleRate: number,
): void {
  if (samples.length > MAX_SAMPLES) return;
  const id = keyOf(location, key);
  drop(id);
  entries.set(id, { samples, sampleRate, keptAt: Date.now() });
  totalSamples += samples.length;
  prune(Date.now());
}

/** The chunk's samples at `sampleRate` if its upload kept them (once), else undefined. */
export function takeDecodedChunk(
  location: string,
  key: string,
  sampleRate: number,
): Float32Array | undefined {
  prune(Date.now());
  const id = keyOf(location, key);
  const entry = entries.get(id);
  if (!entry) return undefined;
  drop(id);
  return entry.sampleRate === sampleRate ? entry.samples : undefined;
}

/** How many chunks are kept (tests). */
export function decodedChunkCount(): number {
  return entries.size;
}

/** Empties the cache (tests: a job that must decode the file itself, as in another process). */
export function forgetDecodedChunks(): void {
  entries.clear();
  totalSamples = 0;
}
