import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../db/embedded.js';
import { sineWav } from '../../test/audio.js';
import { type FakeS3, startFakeS3 } from '../../test/fakes/s3-server.js';
import { adminUrl, newDataDir, start, useServerProcesses, withTimeout } from '../../test/server-process.js';
import { STORAGE_BACKENDS } from '../../test/storage-backends.js';
import { tokenForServer } from '../../test/tokens.js';

useServerProcesses();

const SESSION = 'durable-night';
const chunkAudio = (n: number) => sineWav(3, 200 + n * 10); // distinct bytes per chunk, ~48 KB
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function uploadChunk(
  url: string,
  n: number,
  token: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append(
    'metadata',
    JSON.stringify({ session_id: SESSION, chunk_number: n, duration_seconds: 30, source: 'device' }),
  );
  form.append('audio_file', new Blob([chunkAudio(n)], { type: 'audio/wav' }), `chunk-${n}.wav`);
  const response = await fetch(`${url}/api/recordings/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const fakes: FakeS3[] = [];
afterAll(async () => {
  for (const fake of fakes) await fake.close();
});

// On each storage backend: the recordings folder, or S3-compatible object storage (a local S3
// server), where an upload is acknowledged only once its object is stored.
// Two starts of an embedded PostgreSQL: on a busy machine that alone may take over 30 s.
describe.each(STORAGE_BACKENDS)('upload durability, recordings in the %s backend', (backend) => {
  it('keeps every acknowledged chunk exactly once across a kill -9 in the middle of a stream of uploads', async () => {
    const dataDir = newDataDir();
    const pgPort = await findFreePort();
    const fake = backend === 's3' ? await startFakeS3() : undefined;
    if (fake) fakes.push(fake);
    const env = { WCS_PG_PORT: String(pgPort), ...fake?.env('club') };
    /** A stored chunk's bytes, from the folder or the bucket; null when it is not there. */
    const storedBytes = (filePath: string): Buffer | null => {
      if (fake) return fake.objects.get(`club/recordings/${filePath}`)?.body ?? null;
      const file = path.join(dataDir, 'recordings', filePath);
      return fs.existsSync(file) ? fs.readFileSync(file) : null;
    };
    const first = await start(dataDir, env);
    const token = await tokenForServer(dataDir);

    // Two uploaders stream chunks until the server dies under them.
    const acknowledged = new Set<number>();
    let next = 0;
    let isDead = false;
    const uploader = async () => {
      while (!isDead) {
        const n = next++;
        try {
          const { status } = await uploadChunk(first.url, n, token);
          if (status === 200) acknowledged.add(n);
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    };
    const uploaders = [uploader(), uploader()];
    while (acknowledged.size < 12) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    isDead = true;
    await first.exited;
    await Promise.all(uploaders);
    const acked = [...acknowledged].sort((a, b) => a - b);
    expect(acked.length).toBeGreaterThanOrEqual(12);

    const second = await start(dataDir, env);
    const client = new pg.Client({ connectionString: adminUrl(dataDir, pgPort) });
    await client.connect();
    try {
      const { rows } = await client.query<{
        chunk_number: number;
        copies: number;
        sha256: string;
        file_path: string;
      }>(
        `select c.chunk_number, count(*) over (partition by c.chunk_number)::int as copies, c.sha256, c.file_path
           from recording_chunks c join recordings r on r.id = c.recording_id where r.session_id = $1`,
        [SESSION],
      );
      const stored = new Map(rows.map((row) => [row.chunk_number, row]));
      for (const n of acked) {
        const row = stored.get(n);
        expect(row, `acknowledged chunk ${n} is stored`).toBeDefined();
        expect(row!.copies).toBe(1);
        const bytes = storedBytes(row!.file_path);
        expect(bytes, `acknowledged chunk ${n} has its file`).not.toBeNull();
        expect(sha256(bytes!)).toBe(sha256(chunkAudio(n)));
        expect(row!.sha256).toBe(sha256(chunkAudio(n)));
      }
      // Whatever is stored beyond the acknowledged chunks was complete too (committed before the kill).
      for (const row of rows) {
        expect(storedBytes(row.file_path)).not.toBeNull();
      }
      const { rows: recordingRows } = await client.query(
        'select chunk_count, size_bytes from recordings where session_id = $1',
        [SESSION],
      );
      expect(recordingRows[0].chunk_count).toBe(rows.length);
      const totalBytes = rows.reduce((sum, row) => sum + chunkAudio(row.chunk_number).length, 0);
      expect(Number(recordingRows[0].size_bytes)).toBe(totalBytes);

      // The uploader retries everything it sent: acknowledged chunks come back as already stored.
      for (const n of acked) {
        const retry = await uploadChunk(second.url, n, token);
        expect(retry.status).toBe(200);
        expect(retry.body.created).toBe(false);
      }
      const { rows: after } = await client.query(
        `select count(*)::int as n from recording_chunks c join recordings r on r.id = c.recording_id where r.session_id = $1`,
        [SESSION],
      );
      expect(after[0].n).toBe(rows.length);
    } finally {
      await client.end();
    }
    second.child.kill('SIGTERM');
    expect((await withTimeout(second.exited, 30_000, 'shutdown')).code).toBe(0);
  }, 120_000);
});
