/**
 * Recognition of a recording session: from its uploaded chunks to a timeline of plays.
 *
 * A session is one continuous stream cut into chunks. Chunk N is recognised together with the
 * last TAIL_SECONDS of chunk N-1, so a song that straddles the boundary is heard whole; the
 * detections map to wall-clock time (each chunk from its recorded_at) and merge into the plays the
 * recording already has (recognition-timeline.ts): a song going on extends its play, a new song
 * adds one. Stretches our index did not recognise go to the cloud providers when configured.
 *
 * Work on one recording is serialised by a PostgreSQL advisory lock, so the chunks of a session
 * never race, and merging is idempotent, so a chunk processed twice adds nothing. Without a chunk
 * number (Retry) the whole recording is rebuilt from its chunks in order and its plays replaced in
 * one transaction. Each new play is announced on the session's socket as `song_recognized`.
 */
import { serverMessage } from '@wcs/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { FINGERPRINT_SAMPLE_RATE, type TrackState } from '../../audio/fingerprint/index.js';
import { events, plays, recordingChunks, recordings, songs } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { CloudRecognizer } from '../../providers/cloud-recognizer.js';
import { cloudRecognizersFrom } from '../../providers/cloud-recognizers.js';
import { isNotFound } from '../../storage/index.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { takeDecodedChunk } from '../recordings/decoded-chunks.js';
import {
  type ChunkResult,
  decodeChunk,
  decodeReason,
  heardUntilOf,
  recognizeChunk,
  rememberTail,
  streamStartOf,
  type Timeline,
  tailOf,
  trackingOf,
} from './recognition-chunk.js';
import { storedPlaysOf, storeTimeline, summaryOf } from './recognition-store.js';

export { forgetDecodedTails } from './recognition-chunk.js';

/** First key of the advisory lock (the second is the recording id): "WCSR". */
const LOCK_NAMESPACE = 0x5743_5352;

export interface RecognitionOptions {
  /** Replaces the providers from the configuration (tests). */
  cloudRecognizers?: readonly CloudRecognizer[];
}

export interface RecognitionOutcome {
  /** Plays added by this run. */
  added: number;
  /** False when the recording was deleted meanwhile or has no event. */
  stored: boolean;
}

/** Runs `work` while holding the recording's advisory lock (waiting for another run to finish). */
async function withRecordingLock<T>(deps: AppDeps, recordingId: number, work: () => Promise<T>): Promise<T> {
  const client = await deps.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, recordingId]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, recordingId]);
    }
  } finally {
    client.release();
  }
}

async function publishStatus(
  deps: AppDeps,
  sessionId: string,
  recordingId: number,
  state: 'processing' | 'processed' | 'failed',
  message: string,
) {
  const [row] = await deps.pool
    .query<{ n: number }>('select count(*)::int as n from plays where recording_id = $1', [recordingId])
    .then((result) => result.rows);
  await deps.live.publish(
    sessionId,
    serverMessage('status', { recording_id: recordingId, state, message, songs_recognized: row?.n ?? 0 }),
  );
}

export const NO_EVENT_TEXT =
  'This recording has no event, so its songs cannot be stored as plays. The audio is kept: assign an event and it is recognised again.';

/**
 * Recognises chunk `chunkNumber` of a recording (with the tail of the chunk before), or, without
 * it, rebuilds the whole recording's plays from all its chunks.
 */
export async function processRecording(
  deps: AppDeps,
  recordingId: number,
  chunkNumber?: number,
  options: RecognitionOptions = {},
): Promise<RecognitionOutcome> {
  return withRecordingLock(deps, recordingId, async () => {
    const [recording] = await deps.db
      .select({
        id: recordings.id,
        sessionId: recordings.sessionId,
        eventId: recordings.eventId,
        timezone: events.timezone,
      })
      .from(recordings)
      .leftJoin(events, eq(events.id, recordings.eventId))
      .where(eq(recordings.id, recordingId));
    if (!recording) return { added: 0, stored: false };
    const { sessionId } = recording;
    if (recording.eventId === null || !recording.timezone) {
      await deps.db
        .update(recordings)
        .set({ processed: false, errorMessage: NO_EVENT_TEXT })
        .where(eq(recordings.id, recordingId));
      await publishStatus(deps, sessionId, recordingId, 'failed', NO_EVENT_TEXT);
      return { added: 0, stored: false };
    }
    const chunks = await deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId))
      .orderBy(asc(recordingChunks.chunkNumber));
    const rebuild = chunkNumber === undefined;
    const targets = rebuild ? chunks : chunks.filter((chunk) => chunk.chunkNumber === chunkNumber);
    if (targets.length === 0) return { added: 0, stored: false };
    await publishStatus(
      deps,
      sessionId,
      recordingId,
      'processing',
      rebuild
        ? `Recognising the whole recording (${chunks.length} chunks)`
        : `Recognising chunk ${chunkNumber}`,
    );

    const cloud = options.cloudRecognizers ?? cloudRecognizersFrom(deps.config);
    let timeline: Timeline = {
      plays: rebuild ? [] : await storedPlaysOf(deps.db, recordingId),
      removedIds: [] as number[],
    };
    const results: ChunkResult[] = [];
    // Chunks whose detections are in the timeline: those recognised before (their plays are
    // stored), or, in a rebuild, those of this run so far.
    const heard = new Set(
      rebuild ? [] : chunks.filter((row) => row.recognizedAt !== null).map((row) => row.chunkNumber),
    );
    // The stream's tracking after each chunk recognised in this run; a chunk recognised before
    // it left its own on its row (a rebuild starts from the first chunk, so uses this run's).
    const trackedInRun = new Map<number, TrackState>();
    for (const chunk of targets) {
      heard.add(chunk.chunkNumber);
      let samples: Float32Array;
      try {
        // Decoded by its upload's check when that ran in this process (decoded-chunks.ts).
        samples =
          takeDecodedChunk(deps.storage.recordings.location, chunk.filePath, FINGERPRINT_SAMPLE_RATE) ??
          (await decodeChunk(deps, chunk));
        rememberTail(deps, chunk, samples);
      } catch (error) {
        results.push({
          chunk,
          tracking: null,
          error: isNotFound(error)
            ? `audio file missing (${(error as Error).message})`
            : `undecodable audio (${decodeReason(error)})`,
        });
        continue;
      }
      const previousChunk = chunks.find((candidate) => candidate.chunkNumber === chunk.chunkNumber - 1);
      const previous = previousChunk
        ? {
            chunk: previousChunk,
            tail: await tailOf(deps, previousChunk),
            tracking:
              trackedInRun.get(previousChunk.chunkNumber) ?? (rebuild ? null : trackingOf(previousChunk)),
          }
        : null;
      const outcome = await recognizeChunk(
        deps,
        chunk,
        previous,
        samples,
        timeline,
        cloud,
        streamStartOf(chunks, chunk),
        heardUntilOf(chunks, chunk, heard),
      );
      timeline = outcome.timeline;
      trackedInRun.set(chunk.chunkNumber, outcome.tracking);
      results.push({ chunk, error: outcome.error, tracking: outcome.tracking });
    }

    const { newIds, changed } = await storeTimeline(
      deps.db,
      { id: recordingId, eventId: recording.eventId, timezone: recording.timezone },
      timeline,
      results,
      rebuild,
    );

    // The recording's state from all its chunks, as they are now. The chunk count is read first:
    // a chunk stored after it sets `processed` false itself, and this write must not undo that
    // (an upload committed between the read of the chunks and the write below did, once).
    const [counted] = await deps.db
      .select({ chunkCount: recordings.chunkCount })
      .from(recordings)
      .where(eq(recordings.id, recordingId));
    const allChunks = await deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId))
      .orderBy(asc(recordingChunks.chunkNumber));
    const finalPlays = await storedPlaysOf(deps.db, recordingId);
    const message = summaryOf(allChunks);
    const processed = allChunks.every((chunk) => chunk.recognizedAt !== null);
    // Only while no chunk came since: a newer chunk's own job writes the state that includes it.
    await deps.db
      .update(recordings)
      .set({ processed, processedAt: processed ? new Date() : null, errorMessage: message })
      .where(and(eq(recordings.id, recordingId), eq(recordings.chunkCount, counted?.chunkCount ?? -1)));

    if (newIds.length > 0) await announcePlays(deps, sessionId, recordingId, newIds);
    if (changed) await scheduleScoreRecompute(deps.jobs, `recording ${recordingId} recognised`);
    const songsNow = finalPlays.length;
    await publishStatus(
      deps,
      sessionId,
      recordingId,
      message ? 'failed' : 'processed',
      message ?? `${songsNow} ${songsNow === 1 ? 'song' : 'songs'} recognised so far`,
    );
    return { added: newIds.length, stored: true };
  });
}

/** `song_recognized` on the session's socket for each new play, in time order. */
async function announcePlays(deps: AppDeps, sessionId: string, recordingId: number, ids: number[]) {
  const rows = await deps.db
    .select({
      songId: plays.songId,
      title: songs.title,
      artist: songs.artist,
      startedAt: plays.startedAt,
      endedAt: plays.endedAt,
      confidence: plays.confidence,
    })
    .from(plays)
    .innerJoin(songs, eq(songs.id, plays.songId))
    .where(inArray(plays.id, ids))
    .orderBy(asc(plays.startedAt));
  for (const row of rows) {
    await deps.live.publish(
      sessionId,
      serverMessage('song_recognized', {
        song_id: row.songId,
        title: row.title,
        artist: row.artist,
        timestamp: row.startedAt.toISOString(),
        ended_at: row.endedAt?.toISOString() ?? null,
        // Null when the provider gives no score (AudD): the panel then shows no percentage.
        confidence: row.confidence,
        recording_id: recordingId,
      }),
    );
  }
}
