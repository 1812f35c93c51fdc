// A signal recognised as the server recognises a recording (services/recognition/
// recognition-chunk.ts): 30 s chunks, each with the 20 s tail of the one before, through the
// engine's recognizeStreamWith, the stream's tracking (audio/fingerprint/tracking.ts) going on
// from chunk to chunk. Per chunk: where its signal begins and the chunk itself, its length, its
// window detections (what its plays are chained from) and the plays its tracking told.

export const CHUNK_SECONDS = 30;
export const TAIL_SECONDS = 20;

/**
 * `track`: the tracking's options (a lower `bound` tells more; the caller keeps those it wants).
 * `variants`: other tracking options, each tracked on the same chunks' detections and peaks from
 * its own state (the tracking module's trackChunk, as recognizeStreamWith calls it); their plays
 * are each chunk's `trackedBy[k]`.
 */
export async function streamChunks(engine, source, pcm, track = {}, variants = [], trackChunk = null) {
  const rate = engine.FINGERPRINT_SAMPLE_RATE;
  const chunk = CHUNK_SECONDS * rate;
  const tail = TAIL_SECONDS * rate;
  const chunks = [];
  let tracking = null;
  let verifications = 0;
  const states = variants.map(() => null);
  for (let from = 0; from < pcm.length; from += chunk) {
    const begin = Math.max(0, from - tail);
    const window = pcm.subarray(begin, Math.min(pcm.length, from + chunk));
    const found = await engine.recognizeStreamWith(
      source,
      window,
      { tailSamples: from - begin, tracking },
      track,
    );
    tracking = found.tracking;
    verifications += found.verifications;
    const trackedBy = [];
    for (const [k, options] of variants.entries()) {
      const songIds = new Set([
        ...found.detections.map((d) => d.songId),
        ...(states[k]?.hypotheses.map((h) => h.songId) ?? []),
      ]);
      const grids = await source.gridsOf([...songIds]);
      const signal = {
        samples: window.length,
        tailSamples: from - begin,
        totalFrames: found.totalFrames,
        peaks: found.peaks,
        detections: found.detections,
        grids,
      };
      const result = trackChunk(states[k], signal, options);
      states[k] = result.state;
      trackedBy.push(result.plays);
    }
    chunks.push({
      begin: begin / rate,
      from: from / rate,
      seconds: window.length / rate,
      frames: found.totalFrames,
      detections: found.detections,
      tracked: found.tracked,
      trackedBy,
    });
  }
  return { chunks, verifications };
}

/**
 * The tracking variants of `--track-variants 'a=1,b=2;c=3'` (';' between variants, '' the server's
 * own): each its text and its TrackOptions (numbers); one, the server's, without the option.
 */
export function trackVariantsOf(argv) {
  const at = argv.indexOf('--track-variants');
  return (at === -1 ? '' : argv[at + 1]).split(';').map((name) => ({
    name,
    options: Object.fromEntries(
      name
        .split(',')
        .filter(Boolean)
        .map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]),
    ),
  }));
}
