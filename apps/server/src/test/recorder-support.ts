/**
 * Shared pieces of the recorder's tests: synthesised chunks in a spool (real ffmpeg), temporary
 * folders (removed after each test file), waiting for a condition, and the device token a
 * recorder uploads with. The app-on-a-port helpers live in uploader.int.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@wcs/contract';
import { afterAll } from 'vitest';
import type { Db } from '../db/client.js';
import { startCapture } from '../recorder/capture.js';
import type { SessionInfo, Spool } from '../recorder/spool.js';
import { createToken } from '../services/accounts/tokens.js';

/** Folders made by tempDir in this test file, removed once its tests are done. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

let sessionCounter = 0;

/** A finished session of `seconds` of synthesised sound cut into chunks, as a past run leaves it. */
export async function spoolSession(
  spool: Spool,
  options: { seconds: number; chunkSeconds: number; eventId?: number | null; startedAt?: Date },
): Promise<SessionInfo> {
  sessionCounter += 1;
  const startedAt = options.startedAt ?? new Date(Date.now() - 3600_000 + sessionCounter * 1000);
  const session: SessionInfo = {
    session_id: `test-${process.pid}-${sessionCounter}-${Math.random().toString(36).slice(2, 8)}`,
    started_at: startedAt.toISOString(),
    event_id: options.eventId ?? null,
    filename: `test recording ${sessionCounter}`,
    chunk_seconds: options.chunkSeconds,
  };
  const dir = await spool.createSession(session);
  const capture = startCapture({
    source: {
      kind: 'input',
      spec: `lavfi:sine=f=${220 + sessionCounter * 110}:d=${options.seconds}`,
      realtime: false,
    },
    dir,
    chunkSeconds: options.chunkSeconds,
  });
  const exit = await capture.exited;
  if (exit.code !== 0) throw new Error(`ffmpeg failed: ${exit.stderr}`);
  spool.endActiveSession();
  return session;
}

export function chunkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /^chunk-\d+\.ogg$/.test(name))
    .sort();
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A device token in the test database, as `wcs token create --name <name> --role dj` makes it. */
export async function deviceToken(
  db: Db,
  options: { name?: string; role?: Role } = {},
): Promise<{ token: string; id: number; name: string }> {
  const name = options.name ?? 'test-recorder';
  const { token, info } = await createToken(db, { name, role: options.role ?? 'dj' }, undefined);
  return { token, id: info.id, name };
}
