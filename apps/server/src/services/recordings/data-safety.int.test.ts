import { watch } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingChunks, recordings } from '../../db/schema.js';
import { type ChunkUpload, chunkUpload, multipart, sineWav, uploadInject } from '../../test/audio.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { recoverRecordingFiles } from './recording-recovery.js';

/**
 * Regression tests of the seven findings of issue 17 (docs/operations.md, "Data safety"): each
 * failed on the code before the fix.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { WCS_IDLE_TIMEOUT_SECONDS: '1', WCS_RATE_LIMIT_PER_MINUTE: '3' } });
});
afterAll(async () => {
  await t?.close();
});

const upload = (chunk: ChunkUpload) => t.app.inject(uploadInject(chunkUpload(chunk)));

/** Every file under a folder, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('1. session ids never name a folder', () => {
  it('a recording of session "." or ".." is stored and deleted inside its own folder, touching nothing else', async () => {
    const recordingsDir = t.deps.config.recordingsDir;
    // A file beside the recordings folder stands for the embedded PostgreSQL of the data folder.
    const sentinel = path.join(t.dataDir, 'pg-sentinel');
    await fs.writeFile(sentinel, 'database files');
    const other = await upload({ session_id: 'other-night', chunk_number: 0, audio: sineWav(1, 500) });
    expect(other.statusCode).toBe(200);
    const otherFiles = await filesUnder(path.join(recordingsDir, String(other.json().recording_id)));
    expect(otherFiles).toHaveLength(1);

    // What the data folder holds before: the sentinel, the recordings, and what start-up made
    // (playlists, the download inbox).
    const dataFolder = (await fs.readdir(t.dataDir)).sort();
    expect(dataFolder).toEqual(expect.arrayContaining(['pg-sentinel', 'recordings']));
    for (const sessionId of ['.', '..']) {
      const response = await upload({ session_id: sessionId, chunk_number: 0, audio: sineWav(1, 600) });
      expect(response.statusCode).toBe(200);
      const id = response.json().recording_id as number;
      expect(await filesUnder(path.join(recordingsDir, String(id)))).toHaveLength(1);
      // Nothing was written beside the recordings folder.
      expect((await fs.readdir(t.dataDir)).sort()).toEqual(dataFolder);
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/recordings/${id}` });
      expect(deleted.statusCode).toBe(200);
      await expect(fs.stat(path.join(recordingsDir, String(id)))).rejects.toThrow();
    }
    expect(await fs.readFile(sentinel, 'utf8')).toBe('database files');
    expect(await filesUnder(path.join(recordingsDir, String(other.json().recording_id)))).toEqual(otherFiles);
    await fs.rm(sentinel);
  });
});

describe('2. ids above what the database stores', () => {
  it.each([
    '/api/events/2147483648',
    '/api/songs/2147483648',
    '/api/songs/9007199254740991',
    '/api/playlists/2147483648',
    '/api/analytics/compare?ids=99999999999,1',
    '/api/analytics/top-songs?event_id=2147483648',
  ])('GET %s is a 400 naming the field', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/2147483647|ids? from 1/);
    expect(response.json().field).toMatch(/^(params|querystring)\./);
  });

  it('a review body with a huge id is a 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/scraper/events/review',
      payload: { scraped_event_id: 99999999999, action: 'approved' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('body.scraped_event_id');
  });

  it('an upload naming a huge event_id is a 400 and leaves no folder or file behind', async () => {
    const before = await filesUnder(t.deps.config.recordingsDir);
    const beforeFolders = (await fs.readdir(t.deps.config.recordingsDir)).sort();
    const response = await upload({ session_id: 'huge-event', chunk_number: 0, event_id: 99999999999 });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('metadata.event_id');
    expect(await filesUnder(t.deps.config.recordingsDir)).toEqual(before);
    expect((await fs.readdir(t.deps.config.recordingsDir)).sort()).toEqual(beforeFolders);
  });
});

describe('3. text PostgreSQL cannot store', () => {
  it('a NUL in a query string is a 400 naming the field', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/songs/search?q=a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'querystring.q' });
    expect(response.json().message).toContain('NUL');
  });

  it('a NUL or a lone surrogate in a JSON body is a 400 naming the field, and nothing is stored', async () => {
    for (const name of ['Swing\u0000Fest', 'Swing\ud800Fest']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/events/',
        payload: `{"event_name":${JSON.stringify(name)},"start_date":"2030-01-01","end_date":"2030-01-02"}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe('body.event_name');
    }
    const events = await t.app.inject({ method: 'GET', url: '/api/events/' });
    expect(events.json().total).toBe(0);
  });

  it('a NUL in an upload filename is refused or stored without it, never a 500', async () => {
    const body = multipart([
      {
        name: 'metadata',
        value: JSON.stringify({ session_id: 'nul-name', chunk_number: 0, duration_seconds: 1 }),
      },
      { name: 'audio_file', value: sineWav(1), filename: 'a\u0000b.wav', contentType: 'audio/wav' },
    ]);
    const response = await t.app.inject(uploadInject(body));
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('malformed uploads', () => {
  it.each([
    [
      'a body that ends mid-part',
      '------b\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n{"a":1}',
    ],
    ['a missing boundary', 'hello'],
    [
      'a file cut short',
      '------b\r\nContent-Disposition: form-data; name="audio_file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF0000WAVE',
    ],
  ])('%s is a 400 and leaves no partial file', async (_name, payload) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/recordings/upload',
      payload,
      headers: { 'content-type': `multipart/form-data${payload === 'hello' ? '' : '; boundary=----b'}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/multipart body is malformed/);
    expect(await fs.readdir(path.join(t.deps.config.recordingsDir, '.incoming')).catch(() => [])).toEqual([]);
  });
});

describe('4. stalled uploads', () => {
  it('an upload that stops sending is cut after the idle timeout and its partial file removed', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const { body, contentType } = chunkUpload({ session_id: 'stalled', chunk_number: 0, audio: sineWav(5) });
    // Every file that appears in the folder, told by the kernel: the idle timeout (1 s) may cut the
    // upload and remove its partial file before a loaded machine gets round to looking for it.
    const incoming = path.join(t.deps.config.recordingsDir, '.incoming');
    await fs.mkdir(incoming, { recursive: true });
    const appeared = new Set<string>();
    const watcher = watch(incoming, (_event, name) => {
      if (name) appeared.add(name);
    });
    const socket = net.connect(Number(port), '127.0.0.1');
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => {});
    });
    try {
      socket.write(
        `POST /api/recordings/upload HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.tokens.dj}\r\ncontent-type: ${contentType}\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      // Half the body, then silence.
      socket.write(body.subarray(0, Math.floor(body.length / 2)));
      const elapsed = await closed;
      expect(elapsed).toBeLessThan(10_000);
      await expect.poll(() => appeared.size, { timeout: 10_000 }).toBe(1);
      await expect.poll(async () => (await fs.readdir(incoming)).length, { timeout: 10_000 }).toBe(0);
    } finally {
      watcher.close();
    }
    const [row] = await t.deps.db.select().from(recordings).where(eq(recordings.sessionId, 'stalled'));
    expect(row).toBeUndefined();
  });
});

describe('5. crash residue', () => {
  it('removes partial files and moves unclaimed chunk files to lost+found, re-attaching a lost file to its row', async () => {
    const root = t.deps.config.recordingsDir;
    const stored = await upload({ session_id: 'residue', chunk_number: 0, audio: sineWav(1, 700) });
    const id = stored.json().recording_id as number;
    const [chunk] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.recordingId, id));
    // A crash mid-upload, a crash between the rename and the commit, and a row that lost its file
    // while the file sits under another name of the same chunk and hash (as a half-done move leaves it).
    await fs.mkdir(path.join(root, '.incoming'), { recursive: true });
    await fs.writeFile(path.join(root, '.incoming', 'dead.part'), 'half an upload');
    await fs.writeFile(path.join(root, String(id), '00001-00000000000000aa.webm'), 'no row claims me');
    const renamed = chunk!.filePath.replace(/\.wav$/, '.bin');
    await fs.rename(path.join(root, chunk!.filePath), path.join(root, renamed));

    const report = await recoverRecordingFiles(t.deps.db, root, {
      startedAt: new Date('2030-01-01T00:00:00Z'),
    });
    expect(report).toMatchObject({ partialRemoved: 1, reattached: 1, lostAndFound: 1, missingFiles: 0 });
    expect(await fs.readdir(path.join(root, '.incoming'))).toEqual([]);
    const lost = path.join(
      root,
      'lost+found',
      '2030-01-01T00-00-00.000Z',
      String(id),
      '00001-00000000000000aa.webm',
    );
    expect(await fs.readFile(lost, 'utf8')).toBe('no row claims me');
    const [after] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.id, chunk!.id));
    expect(after!.filePath).toBe(renamed);
    await fs.rm(path.join(root, 'lost+found'), { recursive: true });
  });

  it('removes a second copy of a stored chunk (a retry after a kill between rename and commit), keeps a different file', async () => {
    const root = t.deps.config.recordingsDir;
    const stored = await upload({ session_id: 'twice', chunk_number: 0, audio: sineWav(1, 900) });
    const id = stored.json().recording_id as number;
    const [chunk] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.recordingId, id));
    const copy = chunk!.filePath.replace(/\.wav$/, '.bin');
    await fs.copyFile(path.join(root, chunk!.filePath), path.join(root, copy));
    // Same name pattern, same chunk number and hash prefix, other bytes: not a copy, kept aside.
    const impostor = chunk!.filePath.replace(/\.wav$/, '.ogg');
    await fs.writeFile(path.join(root, impostor), 'same name, other bytes');
    // And one an earlier start set aside before the recorder's retry stored the chunk.
    const setAside = path.join(
      root,
      'lost+found',
      '2030-06-01T00-00-00.000Z',
      '999',
      path.basename(chunk!.filePath),
    );
    await fs.mkdir(path.dirname(setAside), { recursive: true });
    await fs.copyFile(path.join(root, chunk!.filePath), setAside);
    const report = await recoverRecordingFiles(t.deps.db, root, {
      startedAt: new Date('2031-01-01T00:00:00Z'),
    });
    expect(report).toMatchObject({ duplicatesRemoved: 2, lostAndFound: 1, reattached: 0 });
    await expect(fs.stat(path.join(root, 'lost+found', '2030-06-01T00-00-00.000Z'))).rejects.toThrow();
    await expect(fs.stat(path.join(root, copy))).rejects.toThrow();
    expect(
      await fs.readFile(path.join(root, 'lost+found', '2031-01-01T00-00-00.000Z', impostor), 'utf8'),
    ).toBe('same name, other bytes');
    await fs.rm(path.join(root, 'lost+found'), { recursive: true });
  });

  it('on a shared folder, leaves files written in the last minutes alone (another process may be mid-upload)', async () => {
    const root = t.deps.config.recordingsDir;
    await fs.writeFile(path.join(root, '.incoming', 'live.part'), 'being received');
    await fs.mkdir(path.join(root, '999999'), { recursive: true });
    await fs.writeFile(
      path.join(root, '999999', '00000-00000000000000bb.webm'),
      'renamed, not committed yet',
    );
    const report = await recoverRecordingFiles(t.deps.db, root, { spareRecentMs: 60_000 });
    expect(report).toMatchObject({ partialRemoved: 0, lostAndFound: 0 });
    expect(await fs.readdir(path.join(root, '.incoming'))).toEqual(['live.part']);
    const later = await recoverRecordingFiles(t.deps.db, root, {
      startedAt: new Date(Date.now() + 120_000),
      spareRecentMs: 60_000,
    });
    expect(later).toMatchObject({ partialRemoved: 1, lostAndFound: 1 });
    await fs.rm(path.join(root, 'lost+found'), { recursive: true });
  });

  it('moves the files of recordings stored under their session id into their recording folder', async () => {
    const root = t.deps.config.recordingsDir;
    const stored = await upload({ session_id: 'old-layout', chunk_number: 0, audio: sineWav(1, 800) });
    const id = stored.json().recording_id as number;
    const [chunk] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.recordingId, id));
    // As an earlier version stored it: <recordings>/<session_id>/<name>.
    const oldPath = path.join('old-layout', path.basename(chunk!.filePath));
    await fs.mkdir(path.join(root, 'old-layout'));
    await fs.rename(path.join(root, chunk!.filePath), path.join(root, oldPath));
    await fs.rmdir(path.join(root, String(id)));
    await t.deps.db
      .update(recordingChunks)
      .set({ filePath: oldPath })
      .where(eq(recordingChunks.id, chunk!.id));

    const report = await recoverRecordingFiles(t.deps.db, root);
    expect(report).toMatchObject({ migrated: 1, lostAndFound: 0, missingFiles: 0 });
    const [after] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.id, chunk!.id));
    expect(after!.filePath).toBe(chunk!.filePath);
    await expect(fs.stat(path.join(root, chunk!.filePath))).resolves.toBeTruthy();
    await expect(fs.stat(path.join(root, 'old-layout'))).rejects.toThrow();
  });
});

describe('6. audio is verified by decoding', () => {
  it('refuses WebM magic bytes followed by random data with 415 and stores nothing', async () => {
    const fake = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(20_000, 0x5a)]);
    const before = await filesUnder(t.deps.config.recordingsDir);
    const response = await upload({
      session_id: 'fake-webm',
      chunk_number: 0,
      audio: fake,
      contentType: 'audio/webm',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/does not decode/);
    expect(response.json().message).not.toContain(t.dataDir);
    expect(await filesUnder(t.deps.config.recordingsDir)).toEqual(before);
    const [row] = await t.deps.db.select().from(recordings).where(eq(recordings.sessionId, 'fake-webm'));
    expect(row).toBeUndefined();
  });
});

describe('7. the API document and its errors', () => {
  it('every operation declares its refusals, and the upload its multipart body', async () => {
    const document = t.app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters?: unknown[] }>
      >;
    };
    let operations = 0;
    for (const [url, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1;
        const statuses = Object.keys(operation.responses);
        expect(statuses, `${method} ${url}`).toEqual(expect.arrayContaining(['500', '503']));
        if (operation.parameters?.length || operation.requestBody)
          expect(statuses, `${method} ${url}`).toContain('400');
        if (method !== 'get')
          expect(statuses, `${method} ${url}`).toEqual(expect.arrayContaining(['404', '409']));
      }
    }
    expect(operations).toBeGreaterThanOrEqual(61);
    const uploadOperation = document.paths['/api/recordings/upload']!.post!;
    expect(JSON.stringify(uploadOperation.requestBody)).toContain('multipart/form-data');
    expect(JSON.stringify(uploadOperation.requestBody)).toContain('audio_file');
    expect(uploadOperation.responses).toHaveProperty('415');
  });

  it('a body of the wrong shape says what to send, and names the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/events/',
      payload: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).not.toContain('body.:');
    expect(response.json().message).toMatch(/^body: send a JSON object/);
    expect(response.json().field).toBe('body');
  });

  it('answers 429 with Retry-After once an expensive operation is called too often', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 4; i += 1) {
      const response = await t.app.inject({ method: 'POST', url: '/api/analysis/analyze-outdated' });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) retryAfter = String(response.headers['retry-after']);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
