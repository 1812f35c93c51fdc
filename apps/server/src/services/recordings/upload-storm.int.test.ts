/**
 * Issue 17 (data safety), attack suite: an upload storm through `kill -9`. Concurrent uploaders,
 * each a recording session of its own, send their chunks in order to the built `wcs serve` and
 * retry whatever got no answer or a 5xx until it is acknowledged, as a recorder does. Meanwhile
 * the server is killed at random moments and restarted on the same data folder (a new port each
 * time; the uploaders follow). Afterwards every acknowledged chunk must be in the database exactly
 * once, with its bytes, and on disk exactly once, in its recording's folder; no half-received
 * upload is left in .incoming.
 *
 * WCS_STORM_UPLOADERS (20) and WCS_STORM_KILLS (3) scale it (scripts/bench/attack.mjs).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../db/embedded.js';
import {
  adminUrl,
  newDataDir,
  type Server,
  start,
  useServerProcesses,
  withTimeout,
} from '../../test/server-process.js';
import { tokenForServer } from '../../test/tokens.js';

useServerProcesses();

const run = promisify(execFile);
const UPLOADERS = Number(process.env.WCS_STORM_UPLOADERS ?? 20);
const KILLS = Number(process.env.WCS_STORM_KILLS ?? 3);
const TONES = 10;
const CHUNK_SECONDS = 1.5;
/** A title tag of this length in every tone, overwritten in place to make each chunk's bytes unique. */
const PLACEHOLDER = 'WCSSTORM0000000000000000';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let work: string;
let tones: Buffer[];

/**
 * Ten Opus-in-WebM tones (as the browser recorder sends), each with a title placeholder; WebM has
 * no checksums (CRC elements are off), so a same-length title keeps the file valid and decodable.
 */
async function makeTones(): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 0; i < TONES; i += 1) {
    const file = path.join(work, `tone-${i}.webm`);
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${220 + 55 * i}:duration=${CHUNK_SECONDS}`,
      '-c:a',
      'libopus',
      '-b:a',
      '24k',
      '-write_crc32',
      '0',
      '-metadata',
      `title=${PLACEHOLDER}`,
      file,
    ]);
    const bytes = fs.readFileSync(file);
    if (bytes.indexOf(PLACEHOLDER) < 0) throw new Error(`ffmpeg did not write the title tag into ${file}`);
    out.push(bytes);
  }
  return out;
}

/** Chunk `n` of uploader `u`: a tone with a unique title, so a sha256 names exactly one chunk. */
function chunkBytes(u: number, n: number): Buffer {
  const bytes = Buffer.from(tones[(u + n) % TONES]!);
  const tag = `WCSSTORM${u.toString(16).padStart(4, '0')}${n.toString(16).padStart(12, '0')}`;
  bytes.write(tag, bytes.indexOf(PLACEHOLDER), 'latin1');
  return bytes;
}

interface Ack {
  session: string;
  chunk: number;
  sha: string;
  recordingId: number;
}

interface Storm {
  acks: Map<string, Ack>;
  kills: number;
  retried: number;
  /** Answers other than 200 that are not worth a retry (4xx): a valid chunk refused. */
  refused: string[];
  server: Server;
  killLog: string[];
}

async function storm(dataDir: string, env: Record<string, string>, runId: string): Promise<Storm> {
  let server = await start(dataDir, env);
  let url = server.url;
  const token = await tokenForServer(dataDir);
  const acks = new Map<string, Ack>();
  const refused: string[] = [];
  const killLog: string[] = [];
  let retried = 0;
  let stopping = false;

  const uploadOnce = async (u: number, n: number, bytes: Buffer) => {
    const form = new FormData();
    form.append(
      'metadata',
      JSON.stringify({
        session_id: `storm-${runId}-${u}`,
        chunk_number: n,
        duration_seconds: CHUNK_SECONDS,
        source: 'device',
      }),
    );
    form.append('audio_file', new Blob([bytes], { type: 'audio/webm' }), `chunk-${n}.webm`);
    const response = await fetch(`${url}/api/recordings/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, text: await response.text() };
  };

  const uploader = async (u: number) => {
    for (let n = 0; !stopping; n += 1) {
      const bytes = chunkBytes(u, n);
      for (let attempt = 0; ; attempt += 1) {
        if (attempt > 0) {
          retried += 1;
          await sleep(Math.min(2000, 100 * attempt));
        }
        let answer: { status: number; text: string };
        try {
          answer = await uploadOnce(u, n, bytes);
        } catch {
          continue; // refused, reset or timed out: the server is down or dying
        }
        if (answer.status >= 500 || answer.status === 429) continue;
        if (answer.status !== 200) {
          refused.push(`uploader ${u} chunk ${n}: ${answer.status} ${answer.text.slice(0, 300)}`);
          break;
        }
        const body = JSON.parse(answer.text) as { recording_id: number };
        const session = `storm-${runId}-${u}`;
        acks.set(`${session}#${n}`, {
          session,
          chunk: n,
          sha: sha256(bytes),
          recordingId: body.recording_id,
        });
        break;
      }
    }
  };
  const uploaders = Array.from({ length: UPLOADERS }, (_, u) => uploader(u));

  const waitForAcks = async (more: number, maxMs: number) => {
    const target = acks.size + more;
    const deadline = Date.now() + maxMs;
    while (acks.size < target && Date.now() < deadline) await sleep(20);
  };
  let kills = 0;
  try {
    for (; kills < KILLS; kills += 1) {
      await waitForAcks(10 + Math.floor(Math.random() * 25), 20_000);
      // A moment within an upload rather than just after an acknowledgement.
      await sleep(Math.floor(Math.random() * 400));
      const before = acks.size;
      server.child.kill('SIGKILL');
      await server.exited;
      const restartedAt = performance.now();
      server = await start(dataDir, env);
      url = server.url;
      killLog.push(
        `kill ${kills + 1} after ${before} acknowledgements, back in ${((performance.now() - restartedAt) / 1000).toFixed(1)} s`,
      );
    }
    await waitForAcks(2 * UPLOADERS, 20_000);
  } finally {
    stopping = true;
    // Each uploader finishes its chunk in hand against the last server.
    await Promise.all(uploaders);
  }
  return { acks, kills, retried, refused, server, killLog };
}

/** Every file under `root` (relative path → sha256), `lost+found` and `.incoming` apart. */
function listFiles(root: string): {
  files: Map<string, string>;
  lostAndFound: Map<string, string>;
  incoming: string[];
} {
  const files = new Map<string, string>();
  const lostAndFound = new Map<string, string>();
  const incoming: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      const top = relative.split(path.sep)[0];
      if (entry.isDirectory()) walk(full);
      else if (top === 'lost+found') lostAndFound.set(relative, sha256(fs.readFileSync(full)));
      else if (top === '.incoming') incoming.push(relative);
      else files.set(relative, sha256(fs.readFileSync(full)));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return { files, lostAndFound, incoming };
}

interface Verdict {
  lost: string[];
  duplicated: string[];
  misplaced: string[];
  rowsWithoutFile: string[];
  /** Each file of lost+found, with the acknowledged chunk it is a copy of, if any. */
  lostAndFound: string[];
  incoming: string[];
}

async function verify(
  dataDir: string,
  pgPort: number,
  runId: string,
  acks: Map<string, Ack>,
): Promise<Verdict> {
  const client = new pg.Client({ connectionString: adminUrl(dataDir, pgPort) });
  await client.connect();
  let rows: {
    recording_id: number;
    session_id: string;
    chunk_number: number;
    sha256: string;
    file_path: string;
  }[];
  let sessionsWithTwoRecordings: string[];
  try {
    ({ rows } = await client.query(
      `select r.id as recording_id, r.session_id, c.chunk_number, c.sha256, c.file_path
         from recording_chunks c join recordings r on r.id = c.recording_id
        where r.session_id like $1`,
      [`storm-${runId}-%`],
    ));
    sessionsWithTwoRecordings = (
      await client.query<{ session_id: string }>(
        'select session_id from recordings where session_id like $1 group by session_id having count(*) > 1',
        [`storm-${runId}-%`],
      )
    ).rows.map((row) => row.session_id);
  } finally {
    await client.end();
  }
  const recordingsDir = path.join(dataDir, 'recordings');
  const { files, lostAndFound, incoming } = listFiles(recordingsDir);
  const filesBySha = new Map<string, string[]>();
  for (const [file, sha] of files) filesBySha.set(sha, [...(filesBySha.get(sha) ?? []), file]);
  const rowsByChunk = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.session_id}#${row.chunk_number}`;
    rowsByChunk.set(key, [...(rowsByChunk.get(key) ?? []), row]);
  }

  const verdict: Verdict = {
    lost: [],
    duplicated: [],
    misplaced: [],
    rowsWithoutFile: [],
    lostAndFound: [...lostAndFound].map(([file, sha]) => {
      const ack = [...acks.values()].find((candidate) => candidate.sha === sha);
      return ack
        ? `${file}: a copy of ${ack.session} chunk ${ack.chunk}, acknowledged and stored in recording ${ack.recordingId}`
        : `${file}: no acknowledged chunk has these bytes`;
    }),
    incoming,
  };
  for (const session of sessionsWithTwoRecordings)
    verdict.duplicated.push(`session ${session} has several recordings`);
  for (const [key, ack] of acks) {
    const stored = rowsByChunk.get(key) ?? [];
    const name = `${ack.session} chunk ${ack.chunk} (recording ${ack.recordingId})`;
    if (stored.length === 0) {
      verdict.lost.push(`${name}: no row`);
      continue;
    }
    if (stored.length > 1) verdict.duplicated.push(`${name}: ${stored.length} rows`);
    const row = stored[0]!;
    const onDisk = files.get(path.normalize(row.file_path));
    if (row.sha256 !== ack.sha) verdict.lost.push(`${name}: the row has other bytes (sha256 ${row.sha256})`);
    else if (row.recording_id !== ack.recordingId)
      verdict.lost.push(`${name}: now in recording ${row.recording_id}, acknowledged in ${ack.recordingId}`);
    else if (onDisk === undefined) verdict.lost.push(`${name}: ${row.file_path} is not on disk`);
    else if (onDisk !== ack.sha) verdict.lost.push(`${name}: ${row.file_path} holds other bytes`);
    const copies = filesBySha.get(ack.sha) ?? [];
    if (copies.length > 1) verdict.duplicated.push(`${name}: ${copies.length} files (${copies.join(', ')})`);
  }
  for (const row of rows) {
    if (path.normalize(row.file_path).split(path.sep)[0] !== String(row.recording_id))
      verdict.misplaced.push(
        `${row.session_id} chunk ${row.chunk_number}: ${row.file_path} (recording ${row.recording_id})`,
      );
    if (!files.has(path.normalize(row.file_path)))
      verdict.rowsWithoutFile.push(`${row.session_id} chunk ${row.chunk_number}: ${row.file_path}`);
  }
  return verdict;
}

const listing = (items: string[]) =>
  items.length <= 20
    ? items.join('\n  ')
    : `${items.slice(0, 20).join('\n  ')}\n  ... and ${items.length - 20} more`;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-storm-'));
  tones = await makeTones();
}, 60_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('upload storm', () => {
  it(
    `keeps every acknowledged chunk of ${UPLOADERS} concurrent uploaders exactly once through ${KILLS} kill -9 and restarts`,
    async () => {
      const dataDir = newDataDir();
      const pgPort = await findFreePort();
      const runId = Math.random().toString(36).slice(2, 8);
      const started = performance.now();
      const result = await storm(dataDir, { WCS_PG_PORT: String(pgPort) }, runId);
      const verdict = await verify(dataDir, pgPort, runId, result.acks);
      const seconds = (performance.now() - started) / 1000;
      result.server.child.kill('SIGTERM');
      await withTimeout(result.server.exited, 15_000, 'the last server stopping');

      console.log(
        `storm: ${result.acks.size} acknowledged chunks, ${result.kills} kills, ${verdict.lost.length} lost, ${verdict.duplicated.length} duplicated, ${result.retried} retried`,
      );
      console.log(
        `storm: ${UPLOADERS} uploaders, ${seconds.toFixed(1)} s; ${result.killLog.join('; ')}; ${verdict.lostAndFound.length} files in lost+found, ${verdict.incoming.length} left in .incoming, ${verdict.misplaced.length} chunk files outside their recording's folder, ${result.refused.length} chunks refused`,
      );
      if (verdict.lostAndFound.length > 0)
        console.log(`storm: lost+found holds:\n  ${listing(verdict.lostAndFound)}`);

      expect(result.kills).toBe(KILLS);
      expect(result.acks.size, 'acknowledged chunks').toBeGreaterThanOrEqual(UPLOADERS * 2);
      expect(result.refused, 'valid chunks refused with a 4xx').toEqual([]);
      expect(verdict.lost.length, `lost acknowledged chunks:\n  ${listing(verdict.lost)}`).toBe(0);
      expect(verdict.duplicated.length, `duplicated chunks:\n  ${listing(verdict.duplicated)}`).toBe(0);
      expect(verdict.rowsWithoutFile, 'chunk rows whose file is missing').toEqual([]);
      expect(verdict.misplaced, 'chunk files outside <recordings>/<recording_id>/').toEqual([]);
      expect(
        verdict.incoming.filter((file) => file.endsWith('.part')),
        '.part files in recordings/.incoming',
      ).toEqual([]);
    },
    // About 60 s with 20 uploaders and 3 kills on 2 cores, 4-5 s of it for each restart.
    Math.max(180_000, 60_000 + KILLS * 30_000 + UPLOADERS * 1000),
  );
});
