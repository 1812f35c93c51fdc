/**
 * Recordings through the API, on each storage backend (the local folder, and S3-compatible object
 * storage against a local S3 server): upload, retry, refusals, processing, reading, changing and
 * deleting, and the live socket. The stored files are read from the folder or the bucket itself.
 */
import fs from 'node:fs/promises';
import { RECORDING_LIST_SONGS_LIMIT, RECORDING_SONGS_LIMIT } from '@wcs/contract';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, plays, recordings, songs } from '../../db/schema.js';
import { type ChunkUpload, chunkUpload, multipart, sineWav, uploadInject } from '../../test/audio.js';
import { type BackendTestApp, createBackendTestApp, STORAGE_BACKENDS } from '../../test/storage-backends.js';

describe.each(STORAGE_BACKENDS)('recordings stored in the %s backend', (backend) => {
  let t: BackendTestApp;

  beforeAll(async () => {
    t = await createBackendTestApp(backend, { WCS_MAX_UPLOAD_MB: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (chunk: ChunkUpload) => t.app.inject(uploadInject(chunkUpload(chunk)));
  const rawUpload = (fields: Parameters<typeof multipart>[0]) =>
    t.app.inject(uploadInject(multipart(fields)));
  /** The stored chunk files of a session's recording (none when it has no recording). */
  const sessionFiles = async (sessionId: string) => {
    const [row] = await t.deps.db
      .select({ id: recordings.id })
      .from(recordings)
      .where(eq(recordings.sessionId, sessionId));
    return row ? t.recordingFiles(row.id) : [];
  };
  /** Uploads being received: nothing stays there once an upload is answered. */
  const incomingFiles = async () =>
    fs.readdir(t.deps.storage.recordings.stagingDir).catch(() => [] as string[]);
  const waitFor = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('timed out waiting');
  };

  describe('upload', () => {
    it('stores a chunk on disk and in the database before answering', async () => {
      const audio = sineWav(2);
      const response = await upload({ session_id: 'night-1', chunk_number: 0, audio, duration_seconds: 30 });
      expect(response.statusCode).toBe(200);
      const result = response.json();
      expect(result).toMatchObject({
        session_id: 'night-1',
        chunk_number: 0,
        chunk_size_bytes: audio.length,
        created: true,
        recording: { chunk_count: 1, duration_minutes: 0.5, source: 'web_browser', processed: false },
      });
      const files = await sessionFiles('night-1');
      expect(files).toHaveLength(1);
      const stored = await t.readRecordingFile(`${result.recording_id}/${files[0]!}`);
      expect(stored?.equals(audio)).toBe(true);
      // Object storage keeps nothing of a recording on this machine's disk.
      if (backend === 's3') expect(await t.localRecordingFiles()).toEqual([]);
    });

    it('answers a retried chunk with the same result and keeps one copy', async () => {
      const audio = sineWav(1, 300);
      const first = (await upload({ session_id: 'retry-1', chunk_number: 0, audio })).json();
      const second = await upload({ session_id: 'retry-1', chunk_number: 0, audio });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toMatchObject({
        recording_id: first.recording_id,
        chunk_number: 0,
        chunk_size_bytes: first.chunk_size_bytes,
        created: false,
        recording: { chunk_count: 1, duration_minutes: 0.5 },
      });
      expect(await sessionFiles('retry-1')).toHaveLength(1);
    });

    it('grows one recording per session as chunks arrive', async () => {
      const a = sineWav(1, 200);
      const b = sineWav(1.5, 250);
      await upload({ session_id: 'grow-1', chunk_number: 0, audio: a, duration_seconds: 30 });
      const response = await upload({
        session_id: 'grow-1',
        chunk_number: 1,
        audio: b,
        duration_seconds: 15,
      });
      const recording = response.json().recording;
      expect(recording.chunk_count).toBe(2);
      expect(recording.duration_minutes).toBe(0.75);
      expect(recording.file_size_mb).toBe(Math.round(((a.length + b.length) / 1024 / 1024) * 100) / 100);
      expect(await sessionFiles('grow-1')).toHaveLength(2);
    });

    it('refuses different bytes under an already stored chunk number and keeps the first', async () => {
      await upload({ session_id: 'conflict-1', chunk_number: 0, audio: sineWav(1, 440) });
      const response = await upload({ session_id: 'conflict-1', chunk_number: 0, audio: sineWav(1, 880) });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('already uploaded with different content');
      expect(await sessionFiles('conflict-1')).toHaveLength(1);
    });

    it.each([
      ['a text content type', { contentType: 'text/plain' }, 415, 'content type text/plain'],
      [
        'text bytes labelled as audio',
        { audio: Buffer.from('not audio at all, just words') },
        415,
        'not audio',
      ],
      ['an empty file', { audio: Buffer.alloc(0) }, 400, 'audio_file is empty'],
      [
        'a file over the limit',
        { audio: Buffer.concat([sineWav(0.1), Buffer.alloc(1024 * 1024 + 10)]) },
        413,
        'larger than the limit of 1 MB',
      ],
    ])('refuses %s and leaves nothing behind', async (_name, overrides, status, message) => {
      const session = `bad-${status}-${Math.random().toString(16).slice(2, 8)}`;
      const response = await upload({ session_id: session, chunk_number: 0, ...overrides });
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toContain(message);
      expect(await sessionFiles(session)).toEqual([]);
      expect(await incomingFiles()).toEqual([]);
      const list = await t.app.inject({ method: 'GET', url: '/api/recordings/' });
      expect(list.json().recordings.map((r: { session_id: string }) => r.session_id)).not.toContain(session);
    });

    it.each([
      ['missing metadata', [], 'metadata is missing'],
      ['metadata that is not JSON', [{ name: 'metadata', value: '{not json' }], 'metadata is not valid JSON'],
      [
        'metadata without a session',
        [{ name: 'metadata', value: JSON.stringify({ chunk_number: 0, duration_seconds: 30 }) }],
        'metadata.session_id',
      ],
      [
        'a negative chunk number',
        [
          {
            name: 'metadata',
            value: JSON.stringify({ session_id: 's', chunk_number: -1, duration_seconds: 30 }),
          },
        ],
        'metadata.chunk_number',
      ],
    ])('refuses %s with 400', async (_name, metadataFields, message) => {
      const response = await rawUpload([
        ...(metadataFields as Parameters<typeof multipart>[0]),
        { name: 'audio_file', value: sineWav(0.5), filename: 'a.wav', contentType: 'audio/wav' },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
      expect(await incomingFiles()).toEqual([]);
    });

    it('refuses a missing audio_file and a body that is not multipart', async () => {
      const missing = await rawUpload([
        {
          name: 'metadata',
          value: JSON.stringify({ session_id: 'x', chunk_number: 0, duration_seconds: 30 }),
        },
      ]);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toContain('audio_file is missing');
      const json = await t.app.inject({ method: 'POST', url: '/api/recordings/upload', payload: { a: 1 } });
      expect(json.statusCode).toBe(415);
      expect(json.json().message).toContain('multipart/form-data');
    });

    it('links a new recording to an event by id, or creates one by name', async () => {
      const [event] = await t.deps.db
        .insert(events)
        .values({
          name: 'Swing Fling',
          startDate: '2026-11-20',
          endDate: '2026-11-22',
          timezone: 'Europe/Berlin',
        })
        .returning();
      const byId = await upload({ session_id: 'ev-1', chunk_number: 0, event_id: event!.id });
      expect(byId.json().recording).toMatchObject({ event_id: event!.id, event_name: 'Swing Fling' });
      const unknown = await upload({ session_id: 'ev-2', chunk_number: 0, event_id: 999_999 });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Event 999999 was not found');
      expect(await sessionFiles('ev-2')).toEqual([]);
      const byName = await upload({
        session_id: 'ev-3',
        chunk_number: 0,
        event_name: 'Tuesday Practice',
        recorded_at: '2026-11-17T20:30:00Z',
      });
      expect(byName.json().recording.event_name).toBe('Tuesday Practice');
      const created = await t.app.inject({
        method: 'GET',
        url: `/api/events/${byName.json().recording.event_id}`,
      });
      if (created.statusCode === 200)
        expect(created.json()).toMatchObject({ start_date: '2026-11-17', is_festival: false });
    });
  });

  describe('processing', () => {
    it('says plainly that a recording without an event cannot store plays', async () => {
      const { recording_id } = (await upload({ session_id: 'proc-1', chunk_number: 0 })).json();
      const recording = await waitFor(async () => {
        const r = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording_id}` })).json();
        return r.error_message ? r : undefined;
      });
      expect(recording.error_message).toContain('has no event');
      expect(recording.processed).toBe(false);
      expect(recording.songs_recognized).toBe(0);
    });

    it('queues a retry, and 404s an unknown recording', async () => {
      const { recording_id } = (await upload({ session_id: 'proc-2', chunk_number: 0 })).json();
      const retry = await t.app.inject({
        method: 'POST',
        url: `/api/tasks/recognition/process/${recording_id}`,
      });
      expect(retry.statusCode).toBe(202);
      expect(retry.json()).toEqual({ message: 'Processing task queued', recording_id });
      const missing = await t.app.inject({ method: 'POST', url: '/api/tasks/recognition/process/987654' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Recording 987654 was not found');
    });
  });

  describe('reading and changing recordings', () => {
    it('lists with filters, reads one, and 404s an unknown or invalid id', async () => {
      await upload({
        session_id: 'list-dev',
        chunk_number: 0,
        source: 'device',
        recorded_at: '2020-01-01T21:00:00Z',
      });
      const all = (await t.app.inject({ method: 'GET', url: '/api/recordings/' })).json();
      expect(all.total).toBe(all.recordings.length);
      const browser = (
        await t.app.inject({ method: 'GET', url: '/api/recordings/?source=web_browser' })
      ).json();
      expect(browser.recordings.every((r: { source: string }) => r.source === 'web_browser')).toBe(true);
      const since = (
        await t.app.inject({
          method: 'GET',
          url: `/api/recordings/?since=${encodeURIComponent('2021-01-01T00:00:00Z')}`,
        })
      ).json();
      expect(since.recordings.map((r: { session_id: string }) => r.session_id)).not.toContain('list-dev');
      const unprocessed = (
        await t.app.inject({ method: 'GET', url: '/api/recordings/?unprocessed_only=true' })
      ).json();
      expect(unprocessed.recordings.every((r: { processed: boolean }) => !r.processed)).toBe(true);
      const one = await t.app.inject({
        method: 'GET',
        url: `/api/recordings/${all.recordings[0].recording_id}`,
      });
      expect(one.json()).toEqual(all.recordings[0]);
      expect((await t.app.inject({ method: 'GET', url: '/api/recordings/424242' })).statusCode).toBe(404);
      const invalid = await t.app.inject({ method: 'GET', url: '/api/recordings/abc' });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().message).toContain('params.id');
      const badFlag = await t.app.inject({ method: 'GET', url: '/api/recordings/?unprocessed_only=maybe' });
      expect(badFlag.statusCode).toBe(400);
      expect(badFlag.json().message).toContain('unprocessed_only');
    });

    it('sums the stats summary', async () => {
      const list = (await t.app.inject({ method: 'GET', url: '/api/recordings/?limit=1000' })).json();
      const stats = (await t.app.inject({ method: 'GET', url: '/api/recordings/stats/summary' })).json();
      const processed = list.recordings.filter((r: { processed: boolean }) => r.processed).length;
      expect(stats.recordings).toEqual({ total: list.total, processed, unprocessed: list.total - processed });
      const minutes = list.recordings.reduce(
        (sum: number, r: { duration_minutes: number }) => sum + r.duration_minutes,
        0,
      );
      expect(stats.duration.total_hours).toBeCloseTo(minutes / 60, 1);
      expect(stats.recognition).toEqual({ total_songs_recognized: 0, average_per_recording: 0 });
    });

    it('assigns an event', async () => {
      const { recording_id } = (await upload({ session_id: 'assign-1', chunk_number: 0 })).json();
      const [event] = await t.deps.db
        .insert(events)
        .values({ name: 'Assigned Night', startDate: '2026-10-01', endDate: '2026-10-01', timezone: 'UTC' })
        .returning();
      const ok = await t.app.inject({
        method: 'PATCH',
        url: `/api/recordings/${recording_id}/event?event_id=${event!.id}`,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ event_id: event!.id, event_name: 'Assigned Night' });
      const noEvent = await t.app.inject({
        method: 'PATCH',
        url: `/api/recordings/${recording_id}/event?event_id=777777`,
      });
      expect(noEvent.statusCode).toBe(404);
      const noRecording = await t.app.inject({
        method: 'PATCH',
        url: `/api/recordings/777777/event?event_id=${event!.id}`,
      });
      expect(noRecording.statusCode).toBe(404);
      const missing = await t.app.inject({ method: 'PATCH', url: `/api/recordings/${recording_id}/event` });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toContain('event_id');
    });

    it('deletes a recording with its audio files and recognised plays, and nothing else', async () => {
      const other = await upload({ session_id: 'del-other', chunk_number: 0, audio: sineWav(1, 350) });
      await upload({ session_id: 'del-1', chunk_number: 0 });
      const { recording_id } = (await upload({ session_id: 'del-1', chunk_number: 1 })).json();
      expect(await sessionFiles('del-1')).toHaveLength(2);
      const [event] = await t.deps.db
        .insert(events)
        .values({ name: 'Del Night', startDate: '2026-09-01', endDate: '2026-09-01', timezone: 'UTC' })
        .returning();
      const [song] = await t.deps.db
        .insert(songs)
        .values({ title: 'Heard', artist: 'Someone', searchKey: 'heard someone' })
        .returning();
      await t.deps.db.insert(plays).values({
        songId: song!.id,
        eventId: event!.id,
        recordingId: recording_id,
        startedAt: new Date('2026-09-01T21:00:00Z'),
        source: 'recording',
        confidence: 0.9,
      });
      const before = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording_id}` })).json();
      expect(before.recognized_songs).toEqual([
        {
          song_id: song!.id,
          title: 'Heard',
          artist: 'Someone',
          timestamp: '2026-09-01T21:00:00.000Z',
          ended_at: null,
          confidence: 0.9,
        },
      ]);
      expect(before.songs_recognized).toBe(1);
      const response = await t.app.inject({ method: 'DELETE', url: `/api/recordings/${recording_id}` });
      expect(response.statusCode).toBe(200);
      expect(await t.recordingFiles(recording_id)).toEqual([]);
      expect(await t.recordingFiles(other.json().recording_id)).toHaveLength(1);
      expect((await t.app.inject({ method: 'GET', url: `/api/recordings/${recording_id}` })).statusCode).toBe(
        404,
      );
      const remaining = await t.deps.pool.query('select count(*)::int as n from plays where song_id = $1', [
        song!.id,
      ]);
      expect(remaining.rows[0].n).toBe(0);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/recordings/${recording_id}` })).statusCode,
      ).toBe(404);
    });
  });

  describe('recognised songs of a long recording', () => {
    it('carries the first RECORDING_SONGS_LIMIT in play order and pages them all', async () => {
      const { recording_id } = (await upload({ session_id: 'weekend-1', chunk_number: 0 })).json();
      const [event] = await t.deps.db
        .insert(events)
        .values({ name: 'Long Weekend', startDate: '2026-10-02', endDate: '2026-10-04', timezone: 'UTC' })
        .returning();
      const [song] = await t.deps.db
        .insert(songs)
        .values({ title: 'Loop', artist: 'Again', searchKey: 'loop again' })
        .returning();
      const total = RECORDING_SONGS_LIMIT + 3;
      const at = (i: number) => new Date(Date.UTC(2026, 9, 2, 20) + i * 180_000);
      // Inserted newest first, so that play order has to come from the times, not from the ids.
      await t.deps.db.insert(plays).values(
        Array.from({ length: total }, (_, k) => total - 1 - k).map((i) => ({
          songId: song!.id,
          eventId: event!.id,
          recordingId: recording_id,
          startedAt: at(i),
          source: 'recording',
        })),
      );
      const detail = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording_id}` })).json();
      expect(detail.songs_recognized).toBe(total);
      expect(detail.recognized_songs).toHaveLength(RECORDING_SONGS_LIMIT);
      expect(detail.recognized_songs[0].timestamp).toBe(at(0).toISOString());
      const listed = (await t.app.inject({ method: 'GET', url: '/api/recordings/?limit=1000' })).json();
      const inList = listed.recordings.find((r: { recording_id: number }) => r.recording_id === recording_id);
      expect([inList.songs_recognized, inList.recognized_songs.length]).toEqual([
        total,
        RECORDING_LIST_SONGS_LIMIT,
      ]);

      const page = async (query: string) => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/recordings/${recording_id}/songs?${query}`,
        });
        expect(response.statusCode).toBe(200);
        const body = response.json();
        return { times: body.data.map((song: { timestamp: string }) => song.timestamp), total: body.total };
      };
      expect(await page(`skip=${RECORDING_SONGS_LIMIT}`)).toEqual({
        times: [at(total - 3), at(total - 2), at(total - 1)].map((date) => date.toISOString()),
        total,
      });
      expect(await page('limit=2')).toEqual({ times: [at(0).toISOString(), at(1).toISOString()], total });
      const missing = await t.app.inject({ method: 'GET', url: '/api/recordings/777777/songs' });
      expect(missing.statusCode).toBe(404);
    });

    it('answers the songs of its own page when a recording arrives between the page and its songs', async () => {
      const [event] = await t.deps.db
        .insert(events)
        .values({ name: 'Late Night', startDate: '2031-01-01', endDate: '2031-01-01', timezone: 'UTC' })
        .returning();
      const [song] = await t.deps.db
        .insert(songs)
        .values({ title: 'Late', artist: 'Comer', searchKey: 'late comer' })
        .returning();
      // The page's statement reads users and the songs' statement does not: with users locked, the
      // songs are read first, then a recording with plays is added at the top of the list, and
      // only then is the page read. Its songs must be read again for the page it answers.
      const locker = await t.deps.pool.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table users in access exclusive mode');
        const answer = t.app.inject({ method: 'GET', url: '/api/recordings/?limit=2' });
        const waitsForUsers = async () => {
          const { rows } = await t.deps.pool.query(
            `select 1 from pg_locks l join pg_class c on c.oid = l.relation
             where c.relname = 'users' and not l.granted`,
          );
          return rows.length > 0 ? true : undefined;
        };
        // The request's way to the lock (its authentication, its first statement) is real work: not 5 s.
        await waitFor(waitsForUsers, 20_000);
        // The songs' statement does not wait: give it the time to finish.
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Added by the locking transaction itself: the recording's references (users, tokens,
        // events) are checked under locks the lock of users would otherwise make wait.
        const late = (
          await locker.query<{ id: number }>(
            `insert into recordings (session_id, filename, source, recorded_at)
             values ('late-1', 'late-1', 'device', '2031-01-01T21:00:00Z') returning id`,
          )
        ).rows[0]!;
        await locker.query(
          `insert into plays (song_id, event_id, recording_id, started_at, source)
           select $1, $2, $3, '2031-01-01T21:00:00Z'::timestamptz + i * interval '1 minute', 'recording'
           from generate_series(0, 2) i`,
          [song!.id, event!.id, late.id],
        );
        await locker.query('commit');
        const listed = (await answer).json();
        expect(listed.recordings[0].recording_id).toBe(late.id);
        expect([listed.recordings[0].songs_recognized, listed.recordings[0].recognized_songs.length]).toEqual(
          [3, 3],
        );
        for (const recording of listed.recordings) {
          const [counted] = await t.deps.db
            .select({ total: count() })
            .from(plays)
            .where(eq(plays.recordingId, recording.recording_id));
          expect(recording.songs_recognized).toBe(counted!.total);
        }
      } finally {
        await locker.query('rollback').catch(() => undefined);
        locker.release();
      }
    });

    it("lists each recording's songs and count as recomputed from its plays", async () => {
      const ids: number[] = [];
      for (const session of ['mix-a', 'mix-b', 'mix-c']) {
        ids.push((await upload({ session_id: session, chunk_number: 0 })).json().recording_id);
      }
      const [a, b, c] = ids as [number, number, number];
      const [event] = await t.deps.db
        .insert(events)
        .values({ name: 'Mix Weekend', startDate: '2026-11-06', endDate: '2026-11-08', timezone: 'UTC' })
        .returning();
      const made = await t.deps.db
        .insert(songs)
        .values(
          ['Zulu', 'Alpha', 'Mike', 'Kilo'].map((title) => ({
            title,
            artist: `${title} Band`,
            searchKey: title,
          })),
        )
        .returning();
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 6, 20) + minutes * 60_000);
      // Recording a: more plays than the list carries, several at the same second (the play's id
      // then decides), inserted out of order; b: three; c: none; and plays of no recording.
      const planned = [
        ...Array.from({ length: RECORDING_LIST_SONGS_LIMIT + 6 }, (_, i) => ({
          recordingId: a,
          minute: Math.floor(((i * 7) % 26) / 3),
          song: i % 4,
          confidence: i % 3 === 0 ? null : 0.5 + i / 100,
          endedMinute: i % 2 === 0 ? null : 30,
        })),
        ...[2, 1, 2].map((minute, i) => ({
          recordingId: b,
          minute,
          song: i,
          confidence: 0.9,
          endedMinute: null,
        })),
        ...[0, 1].map((minute) => ({
          recordingId: null,
          minute,
          song: 1,
          confidence: null,
          endedMinute: null,
        })),
      ];
      await t.deps.db.insert(plays).values(
        planned.map((play) => ({
          songId: made[play.song]!.id,
          eventId: event!.id,
          recordingId: play.recordingId,
          startedAt: at(play.minute),
          endedAt: play.endedMinute === null ? null : at(play.endedMinute),
          confidence: play.confidence,
          source: 'recording',
        })),
      );
      // Times with microseconds, as PostgreSQL keeps them: the answer's are truncated to the
      // millisecond, as a JavaScript date of them is (.000999 is .000, never .001).
      await t.deps.db.execute(
        sql`update plays set started_at = started_at + interval '999 microseconds',
          ended_at = ended_at + interval '999 microseconds' where recording_id in (${a}, ${b})`,
      );
      /** A recording's songs from its plays, sorted here by start, then play id. */
      const recomputed = async (recordingId: number) => {
        const rows = await t.deps.db
          .select({ id: plays.id, play: plays, title: songs.title, artist: songs.artist })
          .from(plays)
          .innerJoin(songs, eq(songs.id, plays.songId))
          .where(eq(plays.recordingId, recordingId));
        rows.sort((x, y) => x.play.startedAt.getTime() - y.play.startedAt.getTime() || x.id - y.id);
        return rows.map((row) => ({
          song_id: row.play.songId,
          title: row.title,
          artist: row.artist,
          timestamp: row.play.startedAt.toISOString(),
          ended_at: row.play.endedAt?.toISOString() ?? null,
          confidence: row.play.confidence,
        }));
      };
      const listed = (await t.app.inject({ method: 'GET', url: '/api/recordings/?limit=1000' })).json();
      for (const id of [a, b, c]) {
        const expected = await recomputed(id);
        const inList = listed.recordings.find((r: { recording_id: number }) => r.recording_id === id);
        expect(inList.songs_recognized).toBe(expected.length);
        expect(inList.recognized_songs).toEqual(expected.slice(0, RECORDING_LIST_SONGS_LIMIT));
        const detail = (await t.app.inject({ method: 'GET', url: `/api/recordings/${id}` })).json();
        expect(detail.songs_recognized).toBe(expected.length);
        expect(detail.recognized_songs).toEqual(expected.slice(0, RECORDING_SONGS_LIMIT));
      }
      expect(
        [a, b, c].map(
          (id) =>
            listed.recordings.find((r: { recording_id: number }) => r.recording_id === id).songs_recognized,
        ),
      ).toEqual([RECORDING_LIST_SONGS_LIMIT + 6, 3, 0]);
    });
  });

  describe('live socket', () => {
    it('greets, answers ping with pong, reports bad messages, and relays chunk and status messages', async () => {
      const received: { type: string; data: Record<string, unknown> }[] = [];
      const ws = await t.app.injectWS(
        '/api/ws/recordings/live-1',
        { headers: { host: 'localhost', authorization: `Bearer ${t.tokens.viewer}` } },
        { onInit: (socket) => socket.on('message', (raw) => received.push(JSON.parse(raw.toString()))) },
      );
      const next = (type: string) => waitFor(async () => received.find((m) => m.type === type), 10_000);
      expect((await next('connected')).data).toEqual({ session_id: 'live-1' });
      ws.send(JSON.stringify({ type: 'ping', timestamp: 1234 }));
      expect((await next('pong')).data).toEqual({ timestamp: 1234 });
      ws.send('not json');
      expect((await next('error')).data.message).toBe('Messages must be JSON');
      const { recording_id } = (await upload({ session_id: 'live-1', chunk_number: 0 })).json();
      expect((await next('chunk_uploaded')).data).toMatchObject({
        recording_id,
        chunk_number: 0,
        chunk_count: 1,
      });
      expect((await next('status')).data).toMatchObject({ recording_id, state: 'uploaded' });
      const failed = await waitFor(async () =>
        received.find((m) => m.type === 'status' && m.data.state === 'failed'),
      );
      expect(failed.data.message).toContain('has no event');
      ws.terminate();
    });
  });
});
