/**
 * The database side of recognition: a recording's plays as a timeline, the timeline written back
 * in one transaction (deleted, extended and new plays, chunk results), and the recording's
 * message from the state of all its chunks.
 */
import { and, asc, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, recordingChunks } from '../../db/schema.js';
import { recordPlays, refreshSocialHours, timeWindowOf } from '../plays.js';
import { type ChunkResult, type ChunkRow, storedTracking, type Timeline } from './recognition-chunk.js';
import type { PlaySpan } from './recognition-timeline.js';

/**
 * Chunks back from the last one recognised whose tracking is kept on their rows (16 minutes of
 * 30 s chunks, as many states as the process kept in memory before they were stored; at most
 * about 10 kB each: 1.3 kB with one song hypothesis, 8 at most).
 */
export const TRACKING_KEPT_CHUNKS = 32;

export async function storedPlaysOf(db: Db, recordingId: number): Promise<PlaySpan[]> {
  const rows = await db
    .select({
      id: plays.id,
      songId: plays.songId,
      startedAt: plays.startedAt,
      endedAt: plays.endedAt,
      confidence: plays.confidence,
      recognizer: plays.recognizer,
      songEndsAt: plays.songEndsAt,
    })
    .from(plays)
    .where(eq(plays.recordingId, recordingId))
    .orderBy(asc(plays.startedAt), asc(plays.id));
  return rows.map((row) => ({
    id: row.id,
    songId: row.songId,
    startMs: row.startedAt.getTime(),
    endMs: (row.endedAt ?? row.startedAt).getTime(),
    confidence: row.confidence,
    recognizer: (row.recognizer ?? 'library') as PlaySpan['recognizer'],
    songEndMs: row.songEndsAt?.getTime() ?? null,
    changed: false,
  }));
}

/**
 * Writes the timeline: removed plays deleted, changed ones updated, new ones inserted (in their
 * night and time window), chunk results noted, in one transaction. `replaceAll` deletes every
 * earlier play of the recording first (a rebuild). Returns the ids of the new plays.
 */
export async function storeTimeline(
  db: Db,
  recording: { id: number; eventId: number; timezone: string },
  timeline: Timeline,
  results: ChunkResult[],
  replaceAll: boolean,
): Promise<{ newIds: number[]; changed: boolean }> {
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    let changed = false;
    if (replaceAll) {
      const deleted = await tx
        .delete(plays)
        .where(eq(plays.recordingId, recording.id))
        .returning({ id: plays.id });
      changed = deleted.length > 0;
    } else if (timeline.removedIds.length > 0) {
      await tx
        .delete(plays)
        .where(and(eq(plays.recordingId, recording.id), inArray(plays.id, timeline.removedIds)));
      changed = true;
    }
    const touchedSocials: number[] = [];
    for (const play of timeline.plays) {
      if (play.id === null || !play.changed || replaceAll) continue;
      const startedAt = new Date(play.startMs);
      const [row] = await tx
        .update(plays)
        .set({
          startedAt,
          endedAt: new Date(play.endMs),
          confidence: play.confidence,
          songEndsAt: play.songEndMs == null ? null : new Date(play.songEndMs),
          timeWindow: timeWindowOf(startedAt, recording.timezone),
        })
        .where(eq(plays.id, play.id))
        .returning({ socialId: plays.socialId });
      if (row?.socialId) touchedSocials.push(row.socialId);
      changed = true;
    }
    const fresh = timeline.plays.filter((play) => play.id === null || replaceAll);
    const newIds = await recordPlays(
      txDb,
      fresh.map((play) => ({
        songId: play.songId,
        eventId: recording.eventId,
        startedAt: new Date(play.startMs),
        endedAt: new Date(play.endMs),
        source: 'recording',
        confidence: play.confidence,
        recordingId: recording.id,
        recognizer: play.recognizer,
        songEndsAt: play.songEndMs == null ? null : new Date(play.songEndMs),
      })),
    );
    if (newIds.length > 0) changed = true;
    await refreshSocialHours(txDb, touchedSocials);
    const now = new Date();
    for (const result of results) {
      await tx
        .update(recordingChunks)
        .set({
          recognizedAt: now,
          recognitionError: result.error,
          tracking: result.tracking && storedTracking(result.tracking),
        })
        .where(eq(recordingChunks.id, result.chunk.id));
    }
    // The tracking of chunks further back is not read again (a retry of a chunk that far back
    // begins its tracking anew); kept, it would grow the table by a few kB a chunk.
    if (results.length > 0) {
      const last = Math.max(...results.map((result) => result.chunk.chunkNumber));
      await tx
        .update(recordingChunks)
        .set({ tracking: null })
        .where(
          and(
            eq(recordingChunks.recordingId, recording.id),
            lt(recordingChunks.chunkNumber, last - TRACKING_KEPT_CHUNKS),
            isNotNull(recordingChunks.tracking),
          ),
        );
    }
    return { newIds, changed };
  });
}

/**
 * The recording's error message from the state of all its chunks, or null. Stretches no recogniser
 * named are not errors (a night has songs outside any library); that no cloud recogniser is
 * configured is said once, on the Recordings screen and in Settings (`cloud_recognizers`).
 */
export function summaryOf(chunks: readonly ChunkRow[]): string | null {
  const byError = new Map<string, number[]>();
  for (const chunk of chunks) {
    if (!chunk.recognitionError) continue;
    byError.set(chunk.recognitionError, [...(byError.get(chunk.recognitionError) ?? []), chunk.chunkNumber]);
  }
  const lines = [...byError].map(
    ([error, numbers]) => `${numbers.length === 1 ? 'Chunk' : 'Chunks'} ${numbers.join(', ')}: ${error}`,
  );
  return lines.length > 0 ? lines.join(' ') : null;
}
