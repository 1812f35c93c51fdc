import fs from 'node:fs/promises';
import path from 'node:path';
import { type FakeS3, startFakeS3 } from './fakes/s3-server.js';
import { createTestApp, type TestApp } from './harness.js';

/**
 * The two storage backends (storage/README.md), for integration tests that run once on each: the
 * local folder (the default) and S3-compatible object storage (WCS_STORAGE=s3://..., against the
 * local S3 server of fakes/s3-server.ts). What a test checks of the stored files it reads from the
 * backend itself (the folder, or the bucket's objects), not through the storage interface.
 */
export const STORAGE_BACKENDS = ['folder', 's3'] as const;
export type StorageBackendName = (typeof STORAGE_BACKENDS)[number];

const PREFIX = 'club';

export interface BackendTestApp extends TestApp {
  backend: StorageBackendName;
  /** The fake S3 server of the s3 backend (requests, objects, faults); undefined for the folder. */
  s3: FakeS3 | undefined;
  /** The file names of one recording's stored chunks, sorted: `<recordings>/<id>/` or `<prefix>/recordings/<id>/`. */
  recordingFiles(recordingId: number): Promise<string[]>;
  /** The bytes of a stored file of the recordings area (its key, e.g. a chunk row's file_path), or null. */
  readRecordingFile(key: string): Promise<Buffer | null>;
  /** Every file under the recordings folder of this machine, relative to it (the s3 backend keeps none). */
  localRecordingFiles(): Promise<string[]>;
}

/** Every file under a folder, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** createTestApp on the given backend (with `env` added); `close()` also stops the fake S3 server. */
export async function createBackendTestApp(
  backend: StorageBackendName,
  env: Record<string, string> = {},
): Promise<BackendTestApp> {
  const s3 = backend === 's3' ? await startFakeS3() : undefined;
  let t: TestApp;
  try {
    t = await createTestApp({ env: { ...env, ...(s3 ? s3.env(PREFIX) : {}) } });
  } catch (error) {
    await s3?.close();
    throw error;
  }
  const recordingsDir = t.deps.config.recordingsDir;
  return {
    ...t,
    backend,
    s3,
    async recordingFiles(recordingId) {
      if (!s3)
        return (await fs.readdir(path.join(recordingsDir, String(recordingId))).catch(() => [])).sort();
      const under = `${PREFIX}/recordings/${recordingId}/`;
      return [...s3.objects.keys()]
        .filter((key) => key.startsWith(under))
        .map((key) => key.slice(under.length))
        .sort();
    },
    async readRecordingFile(key) {
      if (!s3) return fs.readFile(path.join(recordingsDir, key)).catch(() => null);
      return s3.objects.get(`${PREFIX}/recordings/${key}`)?.body ?? null;
    },
    localRecordingFiles: () => filesUnder(recordingsDir),
    async close() {
      await t.close();
      await s3?.close();
    },
  };
}
