import {
  type Identity,
  RECORDING_LIST_SONGS_LIMIT,
  RECORDING_SONGS_LIMIT,
  type RecognizedSong,
  type Recording,
  type RecordingStatsSummary,
  serverMessage,
  UploadMetadata,
  type UploadResult,
} from '@wcs/contract';
import { and, count, desc, eq, gte, isNotNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { DecodeError, decodeWholeAudio } from '../../audio/decode.js';
import { FINGERPRINT_SAMPLE_RATE } from '../../audio/fingerprint/index.js';
import { type AudioContainer, isAcceptedAudioContentType } from '../../audio/sniff.js';
import { ProgramStartError } from '../../audio/spawn-helper.js';
import { type Db, withDeadlockRetry } from '../../db/client.js';
import { apiTokens, events, plays, recordingChunks, recordings, songs, users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooLarge,
  unavailable,
  unsupportedMedia,
} from '../errors.js';
import { multipartFailure, type UploadPart } from '../multipart.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { keepDecodedChunk } from './decoded-chunks.js';
import {
  chunkRelativePath,
  commitTempFile,
  discardTempFile,
  type ReceivedFile,
  receiveToTempFile,
  removeFile,
  removeRecordingFiles,
} from './recording-files.js';

type RecordingRow = typeof recordings.$inferSelect;

const round2 = (value: number) => Math.round(value * 100) / 100;
const MB = 1024 * 1024;

/** The columns of a recognised song: the play and its song's title and artist. */
const recognizedColumns = {
  recordingId: plays.recordingId,
  songId: plays.songId,
  title: songs.title,
  artist: songs.artist,
  startedAt: plays.startedAt,
  endedAt: plays.endedAt,
  confidence: plays.confidence,
};

function toRecognizedSong(row: {
  songId: number;
  title: string;
  artist: string;
  startedAt: Date;
  endedAt: Date | null;
  confidence: number | null;
}): RecognizedSong {
  return {
    song_id: row.songId,
    title: row.title,
    artist: row.artist,
    timestamp: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    confidence: row.confidence,
  };
}

interface RecognizedOfRecording {
  songs: RecognizedSong[];
  total: number;
}

/** A kept play as SQL returns it (a type, not an interface: db.execute needs an index signature). */
type RecognizedRow = {
  recording_id: number;
  total: number;
} & (
  | {
      song_id: number;
      title: string;
      artist: string;
      timestamp: string;
      ended_at: string | null;
      confidence: number | null;
    }
  | { song_id: null; title: null; artist: null; timestamp: null; ended_at: null; confidence: null }
);

/**
 * A time as `Date.toISOString()` writes it (milliseconds, both truncating the microseconds), made
 * by PostgreSQL: parsing 2,400 times of a list's page into dates and writing them out again took
 * a tenth of the server's CPU for the list (docs/performance.md). Years 0-9999.
 */
const isoTime = (time: SQL) => sql`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface RecognizedOfRecordings {
  byRecording: Map<number, RecognizedOfRecording>;
  /** The recordings the statement read, with recognised songs or without. */
  recordingIds: Set<number>;
}

/**
 * The first `limit` recognised songs of each recording, in play order, and how many
 * it holds in all: a recording that ran for a whole weekend does not make every answer that lists
 * it carry hundreds of songs (GET /recordings/{id}/songs pages them). `recordings` is their ids,
 * or a query of them (a list's page, read in the same statement).
 *
 * One statement, per recording: its plays counted from `plays_recording_idx` alone, its first
 * `limit` plays, then their songs' names by id. Ranking every play of the listed recordings with
 * window functions and reading the names in a second query by a list of ids took 17 + 5 ms in
 * PostgreSQL and 27 + 22 ms in the server (the 962 ids as as many parameters) for the 100
 * recordings of the list at 10,000,000 plays; this takes 11 ms (docs/performance.md).
 */
async function recognizedSongsOf(
  db: Db,
  recordings: number[] | SQLWrapper,
  limit: number,
): Promise<RecognizedOfRecordings> {
  const byRecording = new Map<number, RecognizedOfRecording>();
  const recordingIds = new Set<number>();
  if (Array.isArray(recordings) && recordings.length === 0) return { byRecording, recordingIds };
  const { rows } = await db.execute<RecognizedRow>(sql`
    select r.id as recording_id, c.total, kept.song_id, ${songs.title} as title, ${songs.artist} as artist,
      ${isoTime(sql`kept.started_at`)} as timestamp, ${isoTime(sql`kept.ended_at`)} as ended_at, kept.confidence
    from ${Array.isArray(recordings) ? sql`unnest(${`{${recordings.join(',')}}`}::int[]) as r(id)` : sql`(${recordings}) r`}
    cross join lateral (
      select count(*)::int as total from ${plays} where ${plays.recordingId} = r.id
    ) c
    left join lateral (
      select ${plays.id} as id, ${plays.songId} as song_id, ${plays.startedAt} as started_at,
        ${plays.endedAt} as ended_at, ${plays.confidence} as confidence
      from ${plays} where ${plays.recordingId} = r.id
      order by ${plays.startedAt}, ${plays.id}
      limit ${limit}
    ) kept on true
    left join ${songs} on ${songs.id} = kept.song_id
    -- One row for a recording without plays. A play's song cannot be missing (plays.song_id
    -- references songs, on delete cascade); such a row is left out, as an inner join would.
    where kept.id is null or ${songs.id} is not null
    order by r.id, kept.started_at, kept.id`);
  for (const row of rows) {
    recordingIds.add(row.recording_id);
    if (row.song_id === null) continue;
    const entry = byRecording.get(row.recording_id) ?? { songs: [], total: row.total };
    entry.songs.push({
      song_id: row.song_id,
      title: row.title,
      artist: row.artist,
      timestamp: row.timestamp,
      ended_at: row.ended_at,
      confidence: row.confidence,
    });
    byRecording.set(row.recording_id, entry);
  }
  return { byRecording, recordingIds };
}

/** A recording's recognised songs in play order, a page at a time. */
export async function listRecordingSongs(
  db: Db,
  id: number,
  page: { skip: number; limit: number },
): Promise<{ data: RecognizedSong[]; total: number }> {
  const [recording] = await db.select({ id: recordings.id }).from(recordings).where(eq(recordings.id, id));
  if (!recording) throw notFound('Recording', id);
  const [rows, [counted]] = await Promise.all([
    db
      .select(recognizedColumns)
      .from(plays)
      .innerJoin(songs, eq(songs.id, plays.songId))
      .where(eq(plays.recordingId, id))
      .orderBy(plays.startedAt, plays.id)
      .offset(page.skip)
      .limit(page.limit),
    db.select({ total: count() }).from(plays).where(eq(plays.recordingId, id)),
  ]);
  return { data: rows.map(toRecognizedSong), total: counted?.total ?? 0 };
}

interface RecordingSelection {
  recording: RecordingRow;
  eventName: string | null;
  userName: string | null;
  tokenName: string | null;
}

/** The columns every recording answer is made of: the row, its event's name, who made it. */
const recordingSelection = {
  recording: recordings,
  eventName: events.name,
  userName: users.name,
  tokenName: apiTokens.name,
};

function createdBy(row: RecordingSelection): Recording['created_by'] {
  const { createdByUserId, createdByTokenId } = row.recording;
  if (createdByUserId !== null) return { kind: 'user', id: createdByUserId, name: row.userName ?? '' };
  if (createdByTokenId !== null) return { kind: 'token', id: createdByTokenId, name: row.tokenName ?? '' };
  return null;
}

function toRecording(selection: RecordingSelection, recognized: RecognizedOfRecording): Recording {
  const row = selection.recording;
  const eventName = selection.eventName;
  return {
    recording_id: row.id,
    session_id: row.sessionId,
    filename: row.filename,
    recorded_at: row.recordedAt.toISOString(),
    uploaded_at: row.uploadedAt.toISOString(),
    processed: row.processed,
    processed_at: row.processedAt?.toISOString() ?? null,
    error_message: row.errorMessage,
    duration_minutes: round2(row.durationSeconds / 60),
    file_size_mb: round2(row.sizeBytes / MB),
    chunk_count: row.chunkCount,
    songs_recognized: recognized.total,
    event_id: row.eventId,
    event_name: eventName,
    source: row.source,
    recognized_songs: recognized.songs,
    created_by: createdBy(selection),
  };
}

async function loadRecordings(
  db: Db,
  rows: RecordingSelection[],
  songLimit = RECORDING_SONGS_LIMIT,
  /** Their songs when already read (a list's page); read here when not, or for other recordings. */
  read?: RecognizedOfRecordings,
) {
  const isSame =
    read !== undefined &&
    read.recordingIds.size === rows.length &&
    rows.every((row) => read.recordingIds.has(row.recording.id));
  const recognized = isSame
    ? read
    : await recognizedSongsOf(
        db,
        rows.map((row) => row.recording.id),
        songLimit,
      );
  return rows.map((row) =>
    toRecording(row, recognized.byRecording.get(row.recording.id) ?? { songs: [], total: 0 }),
  );
}

export interface RecordingListFilter {
  skip: number;
  limit: number;
  unprocessed_only?: boolean | undefined;
  source?: string | undefined;
  since?: string | undefined;
  created_by_user_id?: number | undefined;
  created_by_token_id?: number | undefined;
}

export async function listRecordings(db: Db, filter: RecordingListFilter) {
  const conditions = [
    filter.unprocessed_only ? eq(recordings.processed, false) : undefined,
    filter.source ? eq(recordings.source, filter.source) : undefined,
    filter.since ? gte(recordings.recordedAt, new Date(filter.since)) : undefined,
    filter.created_by_user_id ? eq(recordings.createdByUserId, filter.created_by_user_id) : undefined,
    filter.created_by_token_id ? eq(recordings.createdByTokenId, filter.created_by_token_id) : undefined,
  ].filter((condition) => condition !== undefined);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const order = [desc(recordings.recordedAt), desc(recordings.id)];
  // The page's songs are read beside the page, by the same query of its ids: one round trip less
  // (docs/performance.md). A recording added or removed between the two statements makes the
  // songs' page another one; loadRecordings then reads the songs of this page again.
  const [rows, [totalRow], read] = await Promise.all([
    db
      .select(recordingSelection)
      .from(recordings)
      .leftJoin(events, eq(events.id, recordings.eventId))
      .leftJoin(users, eq(users.id, recordings.createdByUserId))
      .leftJoin(apiTokens, eq(apiTokens.id, recordings.createdByTokenId))
      .where(where)
      .orderBy(...order)
      .offset(filter.skip)
      .limit(filter.limit),
    db.select({ total: count() }).from(recordings).where(where),
    recognizedSongsOf(
      db,
      db
        .select({ id: recordings.id })
        .from(recordings)
        .where(where)
        .orderBy(...order)
        .offset(filter.skip)
        .limit(filter.limit),
      RECORDING_LIST_SONGS_LIMIT,
    ),
  ]);
  return {
    recordings: await loadRecordings(db, rows, RECORDING_LIST_SONGS_LIMIT, read),
    total: totalRow?.total ?? 0,
  };
}

export async function getRecording(db: Db, id: number): Promise<Recording> {
  const rows = await db
    .select(recordingSelection)
    .from(recordings)
    .leftJoin(events, eq(events.id, recordings.eventId))
    .leftJoin(users, eq(users.id, recordings.createdByUserId))
    .leftJoin(apiTokens, eq(apiTokens.id, recordings.createdByTokenId))
    .where(eq(recordings.id, id));
  if (rows.length === 0) throw notFound('Recording', id);
  const [recording] = await loadRecordings(db, rows);
  return recording!;
}

export async function recordingStats(db: Db): Promise<RecordingStatsSummary> {
  const [totals] = await db
    .select({
      total: count(),
      processed: sql<number>`count(*) filter (where ${recordings.processed})`,
      bytes: sql<number>`coalesce(sum(${recordings.sizeBytes}), 0)`,
      seconds: sql<number>`coalesce(sum(${recordings.durationSeconds}), 0)`,
    })
    .from(recordings);
  const [recognized] = await db.select({ total: count() }).from(plays).where(isNotNull(plays.recordingId));
  const total = totals?.total ?? 0;
  const processed = Number(totals?.processed ?? 0);
  const bytes = Number(totals?.bytes ?? 0);
  const songsRecognized = recognized?.total ?? 0;
  return {
    recordings: { total, processed, unprocessed: total - processed },
    storage: { total_gb: Math.round((bytes / MB / 1024) * 1000) / 1000, total_mb: round2(bytes / MB) },
    duration: { total_hours: round2(Number(totals?.seconds ?? 0) / 3600) },
    recognition: {
      total_songs_recognized: songsRecognized,
      average_per_recording: total === 0 ? 0 : round2(songsRecognized / total),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Upload

const tooLargeUpload = (deps: AppDeps) =>
  tooLarge(`audio_file is larger than the limit of ${Math.round(deps.config.maxUploadBytes / MB)} MB`);

function parseMetadata(text: string | undefined): UploadMetadata {
  if (text === undefined)
    throw badRequest('metadata is missing: send it as a JSON form field named "metadata"');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('metadata is not valid JSON');
  }
  const parsed = UploadMetadata.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `metadata.${issue.path.join('.')}: ${issue.message}`);
    throw badRequest(issues.join('; '));
  }
  return parsed.data;
}

/** The event a new recording belongs to: the given id, or an event found or created by name. */
async function resolveEvent(tx: Db, metadata: UploadMetadata, recordedAt: Date): Promise<number | null> {
  if (metadata.event_id) {
    const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, metadata.event_id));
    if (!event) throw notFound('Event', metadata.event_id);
    return event.id;
  }
  const name = metadata.event_name?.trim();
  if (!name) return null;
  const day = recordedAt.toISOString().slice(0, 10);
  const [existing] = await tx
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        sql`lower(${events.name}) = lower(${name})`,
        sql`${day}::date between ${events.startDate} - 1 and ${events.endDate} + 1`,
      ),
    )
    .limit(1);
  if (existing) return existing.id;
  const [created] = await tx
    .insert(events)
    .values({
      name,
      startDate: day,
      endDate: day,
      isFestival: false,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    })
    .returning({ id: events.id });
  return created!.id;
}

interface StoredChunk {
  recordingId: number;
  sessionId: string;
  created: boolean;
  /** The chunk's key in the recordings store. */
  filePath: string;
  sizeBytes: number;
}

/**
 * Receives one chunk: on disk (fsync'd) and in the database before it returns. A retry of the same
 * session_id and chunk_number with the same bytes returns the stored chunk; different bytes are a
 * conflict. Any refusal leaves nothing behind.
 */
export async function receiveUpload(
  deps: AppDeps,
  parts: AsyncIterable<UploadPart>,
  /** Who is uploading: written on the recording its first chunk creates. */
  creator?: Identity,
): Promise<UploadResult> {
  const store = deps.storage.recordings;
  let metadataText: string | undefined;
  let received: ReceivedFile | undefined;
  let uploadContentType = '';
  let uploadFilename = '';
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'metadata') metadataText = String(part.value);
        continue;
      }
      if (part.fieldname !== 'audio_file' || received) {
        part.file.resume();
        continue;
      }
      if (!isAcceptedAudioContentType(part.mimetype)) {
        part.file.resume();
        throw unsupportedMedia(
          `audio_file has content type ${part.mimetype || 'none'}; send an audio file (audio/webm, audio/ogg, audio/wav, audio/mpeg, ...)`,
        );
      }
      uploadContentType = part.mimetype;
      uploadFilename = part.filename;
      received = await receiveToTempFile(store.stagingDir, part.file);
    }
    if (!received)
      throw badRequest('audio_file is missing: send the audio as a file field named "audio_file"');
    if (received.isTruncated) throw tooLargeUpload(deps);
    if (received.sizeBytes === 0) throw badRequest('audio_file is empty');
    if (!received.container) {
      throw unsupportedMedia(
        'audio_file is not audio this server can read (expected WebM, Ogg, WAV, MP3, FLAC, M4A or AIFF)',
      );
    }
    const metadata = parseMetadata(metadataText);
    const samples = await verifyDecodes(deps, received.tempPath);
    const stored = await storeChunk(
      deps,
      metadata,
      received,
      received.container,
      {
        contentType: uploadContentType,
        filename: uploadFilename,
      },
      creator,
    );
    // Its recognition job, when it runs in this process, starts from these samples (decoded-chunks.ts);
    // a process that runs no recognition (`wcs serve --no-jobs`) keeps none.
    if (stored.created && deps.jobs.worksOn('recording.process')) {
      keepDecodedChunk(store.location, stored.filePath, samples, FINGERPRINT_SAMPLE_RATE);
    }
    const recording = await getRecording(deps.db, stored.recordingId);
    if (stored.created) await announceChunk(deps, recording, metadata.chunk_number, stored.sizeBytes);
    return {
      recording_id: stored.recordingId,
      session_id: stored.sessionId,
      chunk_number: metadata.chunk_number,
      chunk_size_bytes: stored.sizeBytes,
      created: stored.created,
      recording,
    };
  } catch (error) {
    throw multipartFailure(error, () => tooLargeUpload(deps), 'nothing was stored');
  } finally {
    // Stored chunks were renamed away (this is then a no-op); refused ones and retries end here.
    if (received) await discardTempFile(received.tempPath);
  }
}

/**
 * Decodes the received file to the end, at the rate recognition reads: a chunk that only starts
 * like audio (its magic bytes) is refused with 415 before anything is stored. Returns the samples.
 */
async function verifyDecodes(deps: AppDeps, tempPath: string): Promise<Float32Array> {
  try {
    return await decodeWholeAudio(tempPath, {
      sampleRate: FINGERPRINT_SAMPLE_RATE,
      ffmpegPath: deps.config.ffmpegPath,
      // The upload waits for this decode: an ffmpeg started ahead saves its start (decode.ts).
      keepWarm: true,
    });
  } catch (error) {
    if (error instanceof DecodeError) {
      const reason = error.reason.replaceAll(tempPath, 'audio_file');
      throw unsupportedMedia(`audio_file does not decode as audio (${reason}); nothing was stored`);
    }
    if (error instanceof ProgramStartError) {
      throw unavailable(
        `The server cannot check uploaded audio: ffmpeg does not start (${error.message}); install ffmpeg or set FFMPEG_PATH`,
      );
    }
    throw error;
  }
}

/**
 * Stores a verified chunk in one transaction: the recording (found by session id, or created),
 * the chunk's file put under <recording_id>/... in the recordings store (renamed into the folder,
 * or uploaded to object storage) and its row. The file is stored before the commit, so a
 * committed row always has its file; a crash between the two leaves a file without a row, which
 * the next start moves to lost+found (recording-recovery.ts).
 */
async function storeChunk(
  deps: AppDeps,
  metadata: UploadMetadata,
  received: ReceivedFile,
  container: AudioContainer,
  upload: { contentType: string; filename: string },
  creator: Identity | undefined,
): Promise<StoredChunk> {
  const store = deps.storage.recordings;
  const recordedAt = metadata.recorded_at ? new Date(metadata.recorded_at) : new Date();
  let placedAt: string | undefined;
  try {
    return await deps.db.transaction(async (tx) => {
      const lockRecording = () =>
        tx.select().from(recordings).where(eq(recordings.sessionId, metadata.session_id)).for('update');
      let [recording] = await lockRecording();
      if (!recording) {
        const eventId = await resolveEvent(tx as unknown as Db, metadata, recordedAt);
        await tx
          .insert(recordings)
          .values({
            sessionId: metadata.session_id,
            filename: metadata.filename ?? (upload.filename || `recording-${metadata.session_id}`),
            source: metadata.source,
            eventId,
            recordedAt,
            createdByUserId: creator?.kind === 'user' ? creator.id : null,
            createdByTokenId: creator?.kind === 'token' ? creator.id : null,
          })
          .onConflictDoNothing({ target: recordings.sessionId });
        [recording] = await lockRecording();
      }
      const recordingId = recording!.id;
      const [existing] = await tx
        .select()
        .from(recordingChunks)
        .where(
          and(
            eq(recordingChunks.recordingId, recordingId),
            eq(recordingChunks.chunkNumber, metadata.chunk_number),
          ),
        );
      if (existing) {
        if (existing.sha256 !== received.sha256) {
          throw conflict(
            `Chunk ${metadata.chunk_number} of session ${metadata.session_id} was already uploaded with different content`,
          );
        }
        return {
          recordingId,
          sessionId: metadata.session_id,
          created: false,
          filePath: existing.filePath,
          sizeBytes: existing.sizeBytes,
        };
      }
      const relativePath = chunkRelativePath(recordingId, metadata.chunk_number, received.sha256, container);
      await commitTempFile(store, received.tempPath, relativePath);
      placedAt = relativePath;
      await tx.insert(recordingChunks).values({
        recordingId,
        chunkNumber: metadata.chunk_number,
        filePath: relativePath,
        contentType: upload.contentType,
        sizeBytes: received.sizeBytes,
        sha256: received.sha256,
        durationSeconds: metadata.duration_seconds,
        recordedAt,
      });
      await tx
        .update(recordings)
        .set({
          durationSeconds: sql`${recordings.durationSeconds} + ${metadata.duration_seconds}`,
          sizeBytes: sql`${recordings.sizeBytes} + ${received.sizeBytes}`,
          chunkCount: sql`${recordings.chunkCount} + 1`,
          recordedAt: sql`least(${recordings.recordedAt}, ${recordedAt.toISOString()}::timestamptz)`,
          lastChunkAt: new Date(),
          // New audio has not been through recognition yet.
          processed: false,
          errorMessage: null,
        })
        .where(eq(recordings.id, recordingId));
      return {
        recordingId,
        sessionId: metadata.session_id,
        created: true,
        filePath: relativePath,
        sizeBytes: received.sizeBytes,
      };
    });
  } catch (error) {
    if (placedAt) {
      // The name carries the recording id, chunk number and hash: only a committed row of this very
      // chunk can claim it (a concurrent retry waits on the recording's row lock above).
      const [claimed] = await deps.db
        .select({ id: recordingChunks.id })
        .from(recordingChunks)
        .where(eq(recordingChunks.filePath, placedAt));
      if (!claimed) await removeFile(store, placedAt);
    }
    throw error;
  }
}

async function announceChunk(deps: AppDeps, recording: Recording, chunkNumber: number, sizeBytes: number) {
  const session = recording.session_id;
  await deps.live.publish(
    session,
    serverMessage('chunk_uploaded', {
      recording_id: recording.recording_id,
      chunk_number: chunkNumber,
      size_bytes: sizeBytes,
      chunk_count: recording.chunk_count,
      duration_minutes: recording.duration_minutes,
    }),
  );
  await deps.live.publish(
    session,
    serverMessage('status', {
      recording_id: recording.recording_id,
      state: 'uploaded',
      message: `Chunk ${chunkNumber} stored (${recording.chunk_count} in this recording)`,
      songs_recognized: recording.songs_recognized,
    }),
  );
  // How long this chunk's recognition may stay active before the queue takes it for abandoned and
  // runs it again (WCS_CHUNK_JOB_EXPIRE_SECONDS, default 5 minutes). A chunk takes seconds; the
  // bound matters when the process running it dies (kill -9, a crash, power): with pg-boss's
  // default of 15 minutes the recording stayed unprocessed that long (measured by
  // scripts/bench/processes.mjs: settled 972 s after the last upload). Whole rebuilds (Retry) keep
  // the default: a night's recording can take minutes.
  await deps.jobs.send(
    'recording.process',
    { recording_id: recording.recording_id, reason: 'upload', chunk_number: chunkNumber },
    { expireInSeconds: deps.config.chunkJobExpireSeconds },
  );
}

// ---------------------------------------------------------------------------------------------
// Changes

/**
 * Gives the recording an event; its plays move with it, and recognition runs again for the new
 * event: its nights (socials) and time windows, and the plays a recording without an event could
 * not store.
 */
export async function assignRecordingEvent(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  id: number,
  eventId: number,
): Promise<Recording> {
  const { db } = deps;
  const [event] = await db.select({ id: events.id }).from(events).where(eq(events.id, eventId));
  if (!event) throw notFound('Event', eventId);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(recordings)
      .set({ eventId })
      .where(eq(recordings.id, id))
      .returning({ id: recordings.id });
    if (updated.length === 0) throw notFound('Recording', id);
    // Its plays move with it; the reprocessing queued below finds their nights again.
    await tx.update(plays).set({ eventId, socialId: null }).where(eq(plays.recordingId, id));
  });
  const recording = await getRecording(db, id);
  if (recording.chunk_count > 0) {
    await deps.jobs.send('recording.process', { recording_id: id, reason: 'retry' });
  }
  return recording;
}

/**
 * Deletes a recording, its chunks and its plays (one transaction), then its audio files (one
 * prefix of the recordings store). An admin may delete any; a dj or a device only the recordings it made
 * (docs/security.md).
 */
export async function deleteRecording(
  deps: AppDeps,
  id: number,
  by?: Identity,
): Promise<{ message: string }> {
  if (by && by.role !== 'admin') {
    const [row] = await deps.db
      .select({ userId: recordings.createdByUserId, tokenId: recordings.createdByTokenId })
      .from(recordings)
      .where(eq(recordings.id, id));
    if (!row) throw notFound('Recording', id);
    const isOwn = by.kind === 'user' ? row.userId === by.id : row.tokenId === by.id;
    if (!isOwn)
      throw forbidden(`Recording ${id} was made by someone else: only its maker or an admin may delete it`);
  }
  // Its recognition may be writing plays of it right now; the cascade then meets those rows in
  // another order, and PostgreSQL may pick the delete as a deadlock's victim (503 twice in a CI
  // run's fuzz, 2026-11-28): an aborted statement deleted nothing, so it runs again.
  const [deleted] = await withDeadlockRetry(() =>
    deps.db.delete(recordings).where(eq(recordings.id, id)).returning({ filename: recordings.filename }),
  );
  if (!deleted) throw notFound('Recording', id);
  await removeRecordingFiles(deps.storage.recordings, id);
  // Its recognised plays went with it: scores, downloads and playlists follow.
  await scheduleScoreRecompute(deps.jobs, `recording ${id} deleted`);
  return { message: `Recording ${id} (${deleted.filename}) and everything recognised from it were deleted` };
}

export async function requestProcessing(
  deps: AppDeps,
  id: number,
): Promise<{ message: string; recording_id: number }> {
  const [recording] = await deps.db
    .update(recordings)
    .set({ errorMessage: null, processed: false })
    .where(eq(recordings.id, id))
    .returning({ id: recordings.id, chunkCount: recordings.chunkCount });
  if (!recording) throw notFound('Recording', id);
  if (recording.chunkCount === 0) throw new AppError(409, `Recording ${id} has no audio to process`);
  await deps.jobs.send('recording.process', { recording_id: id, reason: 'retry' });
  return { message: 'Processing task queued', recording_id: id };
}

/** Records why a recording could not be processed, and tells its live sockets. */
export async function markRecordingUnprocessable(deps: AppDeps, id: number, reason: string): Promise<void> {
  const [row] = await deps.db
    .update(recordings)
    .set({ errorMessage: reason, processed: false })
    .where(eq(recordings.id, id))
    .returning({ sessionId: recordings.sessionId });
  if (!row) return; // deleted meanwhile
  const recording = await getRecording(deps.db, id);
  await deps.live.publish(
    row.sessionId,
    serverMessage('status', {
      recording_id: id,
      state: 'failed',
      message: reason,
      songs_recognized: recording.songs_recognized,
    }),
  );
}
