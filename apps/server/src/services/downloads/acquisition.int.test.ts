/**
 * The acquisition half of the download queue, on real parts (embedded PostgreSQL, ffmpeg, the
 * fingerprint engine, chokidar on a real folder, a real child process):
 * - a room recording heard two songs the library lacks; a file of the first, dropped into the
 *   inbox, completes its entry (proven by the recording's stretch); a file of another song under
 *   the second song's tags is refused as a mismatch; a file matching nothing becomes a new song;
 * - the external command provider with a fake command: success, a timeout, output that is not
 *   audio, a failure retried with backoff, arguments never seen by a shell;
 * - the providers' daily cap; Retry running the worker through its job.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadAttempts, downloadQueue, events, plays, songs } from '../../db/schema.js';
import { chunkUpload } from '../../test/audio.js';
import { concat, roomize, synthSong, taggedFlac, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { songSearchKey } from '../../text.js';
import { REFUSED_DIR } from './inbox.js';
import { RETRY_BASE_MS, runDownloads } from './worker.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-21T20:30:00Z');
const CHUNK_SECONDS = 30;

let t: TestApp;
let work: string;
let inbox: string;
let commandLog: string;
let eventId: number;
let recordingId: number;

const songA = synthSong(101, 60, RATE);
const songB = synthSong(202, 60, RATE);

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  what = 'a condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A song known only by its plays (no file), queued pending; heard in the recording between the given seconds when `heard` is set. */
async function queuedSong(
  title: string,
  artist: string,
  heard?: [number, number],
): Promise<{ songId: number; queueId: number }> {
  const [song] = await t.deps.db
    .insert(songs)
    .values({ title, artist, searchKey: songSearchKey(title, artist) })
    .returning({ id: songs.id });
  if (heard) {
    await t.deps.db.insert(plays).values({
      songId: song!.id,
      eventId,
      recordingId,
      startedAt: new Date(T0 + heard[0] * 1000),
      endedAt: new Date(T0 + heard[1] * 1000),
      source: 'recording',
      confidence: 0.9,
      recognizer: 'acrcloud',
    });
  }
  const [entry] = await t.deps.db
    .insert(downloadQueue)
    .values({ songId: song!.id, priorityScore: 100 })
    .returning({ id: downloadQueue.id });
  return { songId: song!.id, queueId: entry!.id };
}

async function entry(queueId: number) {
  const [row] = await t.deps.db.select().from(downloadQueue).where(eq(downloadQueue.id, queueId));
  return row!;
}

async function song(songId: number) {
  const [row] = await t.deps.db.select().from(songs).where(eq(songs.id, songId));
  return row!;
}

async function setProviders(
  providers: {
    name: 'inbox' | 'command';
    enabled: boolean;
    daily_cap?: number;
    timeout_seconds?: number;
    max_attempts?: number;
  }[],
) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/downloads/providers',
    payload: {
      providers: providers.map((p) => ({
        daily_cap: 100,
        timeout_seconds: 60,
        max_attempts: 1,
        ...p,
      })),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Copies a prepared file into the inbox (a copy in progress, as a browser's download is). */
async function drop(source: string, name: string): Promise<string> {
  const target = path.join(inbox, name);
  await fs.copyFile(source, target);
  return target;
}

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-acquire-'));
  commandLog = path.join(work, 'command.log');
  // The DJ's "download program", a fake: answers by the title it is given.
  const script = path.join(work, 'fake-download.sh');
  await fs.writeFile(
    script,
    `#!/bin/sh
# $1 title, $2 artist, $3 out folder, $4 isrc
printf '%s|%s|%s\\n' "$1" "$2" "$4" >> "${commandLog}"
case "$1" in
  "Slow Song") echo $$ > "${work}/slow.pid"; sleep 30 ;;
  "Not Audio") echo "this is not audio" > "$3/song.mp3" ;;
  "Nothing Found") echo "no such song in my store" >&2; exit 3 ;;
  "Flaky Song")
    if [ ! -f "${work}/flaky.marker" ]; then touch "${work}/flaky.marker"; echo "network down" >&2; exit 1; fi
    ffmpeg -loglevel error -i "${work}/command-song.wav" -metadata comment="$1" "$3/flaky.flac" ;;
  *) ffmpeg -loglevel error -i "${work}/command-song.wav" -metadata comment="$1" "$3/fetched.flac" ;;
esac
`,
    { mode: 0o755 },
  );
  t = await createTestApp({
    env: { WCS_DOWNLOAD_COMMAND: `${script} {title} {artist} {out} {isrc}` },
  });
  inbox = t.deps.config.inboxDir;
  RETRY_BASE_MS.value = 200;

  // The room heard song A (0-60 s) then song B (60-120 s): four 30 s chunks.
  const room = roomize(concat(songA, songB), RATE, 15);
  const [event] = await t.deps.db
    .insert(events)
    .values({ name: 'Inbox Night', startDate: '2026-11-21', endDate: '2026-11-21', timezone: 'UTC' })
    .returning({ id: events.id });
  eventId = event!.id;
  for (let index = 0; index < 4; index++) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(
      wav,
      room.subarray(index * CHUNK_SECONDS * RATE, (index + 1) * CHUNK_SECONDS * RATE),
      RATE,
    );
    const audio = await webmOpus(wav, path.join(work, `chunk-${index}.webm`));
    const { body, contentType } = chunkUpload({
      session_id: 'inbox-night',
      chunk_number: index,
      duration_seconds: CHUNK_SECONDS,
      recorded_at: new Date(T0 + index * CHUNK_SECONDS * 1000).toISOString(),
      event_id: eventId,
      audio,
      contentType: 'audio/webm',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/recordings/upload',
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode, response.body).toBe(200);
    recordingId = response.json().recording_id;
  }
  await writeWav(path.join(work, 'command-song.wav'), synthSong(303, 40, RATE), RATE);
}, 180_000);

afterAll(async () => {
  RETRY_BASE_MS.value = 2000;
  await t?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('the inbox folder', () => {
  it('waits while the inbox is off in Settings', async () => {
    const providers = (await t.app.inject({ method: 'GET', url: '/api/downloads/providers' })).json();
    expect(providers.providers.map((p: { name: string; enabled: boolean }) => [p.name, p.enabled])).toEqual([
      ['inbox', false],
      ['command', false],
    ]);
    expect(providers.providers[1].configured).toBe(true);
  });

  it('completes a queued song when its file is dropped, proven by the stretch of the recording where it was heard', async () => {
    await setProviders([
      { name: 'inbox', enabled: true },
      { name: 'command', enabled: false },
    ]);
    const { songId, queueId } = await queuedSong('Heard Song', 'Room Artist', [5, 55]);
    // What the Downloads screen could read once the entry had completed: the try's outcome when
    // the completion asks for its score recompute (right after its writes committed).
    const triesWhenCompleted: (string | null)[] = [];
    const send = t.deps.jobs.send;
    t.deps.jobs.send = async (name, data, options) => {
      if (name === 'scores.recompute' && (data as { reason?: string }).reason === 'download completed') {
        const tries = await t.deps.db
          .select({ outcome: downloadAttempts.outcome })
          .from(downloadAttempts)
          .where(eq(downloadAttempts.provider, 'inbox'))
          .orderBy(desc(downloadAttempts.id))
          .limit(1);
        triesWhenCompleted.push(tries[0]?.outcome ?? null);
      }
      return send.call(t.deps.jobs, name, data, options);
    };
    const flac = path.join(work, 'heard.flac');
    await taggedFlac(flac, songA, RATE, { title: 'Heard Song', artist: 'Room Artist' });
    await drop(flac, 'Room Artist - Heard Song.flac');

    const done = await waitFor(
      async () => {
        const row = await entry(queueId);
        return row.status === 'completed' ? row : undefined;
      },
      90_000,
      'the entry to complete',
    );
    expect(done.provider).toBe('inbox');
    expect(done.lastError).toBeNull();
    const row = await song(songId);
    expect(row.filePresent).toBe(true);
    expect(path.dirname(row.filePath!)).toBe(t.deps.config.acquiredDir);
    expect(row.fingerprintedAt).not.toBeNull();
    await expect(fs.access(path.join(inbox, 'Room Artist - Heard Song.flac'))).rejects.toThrow();
    const attempt = await waitFor(
      async () => {
        const [found] = await t.deps.db
          .select()
          .from(downloadAttempts)
          .where(and(eq(downloadAttempts.queueId, queueId), eq(downloadAttempts.outcome, 'completed')));
        return found;
      },
      10_000,
      'the inbox report',
    );
    expect(attempt.message).toMatch(/stretch of recording \d+ .* is in the file/);
    t.deps.jobs.send = send;
    // The entry and its try completed together: no moment showed the entry done, its try running.
    expect(triesWhenCompleted).toEqual(['completed']);
  }, 120_000);

  it('refuses a different song under the same tags as a mismatch', async () => {
    const { songId, queueId } = await queuedSong('Twin Title', 'Same Artist', [65, 115]);
    const impostor = path.join(work, 'impostor.flac');
    await taggedFlac(impostor, synthSong(404, 60, RATE), RATE, {
      title: 'Twin Title',
      artist: 'Same Artist',
    });
    await drop(impostor, 'Same Artist - Twin Title.flac');

    const refused = await waitFor(
      async () => {
        const [row] = await t.deps.db
          .select()
          .from(downloadAttempts)
          .where(
            and(
              eq(downloadAttempts.fileName, 'Same Artist - Twin Title.flac'),
              eq(downloadAttempts.outcome, 'mismatch'),
            ),
          );
        return row;
      },
      90_000,
      'the mismatch',
    );
    expect(refused.message).toMatch(
      /refused: its tags say "Twin Title" by Same Artist, but the stretch of recording/,
    );
    const row = await entry(queueId);
    expect(row.status).toBe('pending');
    expect(row.lastError).toMatch(/is not in it \(another song or another version\)/);
    expect((await song(songId)).filePresent).toBe(false);
    await fs.access(path.join(inbox, REFUSED_DIR, 'Same Artist - Twin Title.flac'));

    // The right file under the same name then completes it.
    const real = path.join(work, 'twin.flac');
    await taggedFlac(real, songB, RATE, { title: 'Twin Title', artist: 'Same Artist' });
    await drop(real, 'Same Artist - Twin Title.flac');
    await waitFor(
      async () => ((await entry(queueId)).status === 'completed' ? true : undefined),
      90_000,
      'the real file',
    );
  }, 200_000);

  it('imports a file that matches nothing as a new song and reports it', async () => {
    const loner = path.join(work, 'loner.flac');
    await taggedFlac(loner, synthSong(505, 30, RATE), RATE, { title: 'Brand New', artist: 'Nobody Queued' });
    await drop(loner, 'loner.flac');
    const report = await waitFor(
      async () => {
        const response = await t.app.inject({ method: 'GET', url: '/api/downloads/attempts?limit=20' });
        return response
          .json()
          .attempts.find(
            (a: { file_name: string; outcome: string }) =>
              a.file_name === 'loner.flac' && a.outcome === 'new_song',
          );
      },
      60_000,
      'the new song',
    );
    expect(report.message).toMatch(
      /"Brand New" by Nobody Queued matched no queued song; it became a new song/,
    );
    const row = await song(report.song_id);
    expect(row.title).toBe('Brand New');
    expect(row.filePresent).toBe(true);
  }, 90_000);

  it('refuses a file that is not audio', async () => {
    await fs.writeFile(path.join(work, 'fake.mp3'), 'not audio at all');
    await drop(path.join(work, 'fake.mp3'), 'fake.mp3');
    const row = await waitFor(
      async () => {
        const [found] = await t.deps.db
          .select()
          .from(downloadAttempts)
          .where(and(eq(downloadAttempts.fileName, 'fake.mp3'), eq(downloadAttempts.outcome, 'unusable')));
        return found;
      },
      60_000,
      'the refusal',
    );
    expect(row.message).toMatch(/is not audio ffmpeg can decode/);
    await fs.access(path.join(inbox, REFUSED_DIR, 'fake.mp3'));
  }, 90_000);
});

describe('the external command', () => {
  beforeEach(async () => {
    // A timeout far above the fake's work (an ffmpeg copy of 40 s of audio): at a load of 10 on two
    // cores, 2 s failed the retry of "Flaky Song". The timeout's own test sets 1 s.
    await setProviders([
      { name: 'command', enabled: true, timeout_seconds: 30, max_attempts: 2 },
      { name: 'inbox', enabled: false },
    ]);
  });

  it('runs the command without a shell, checks the file decodes, and completes the entry', async () => {
    const title = 'Command Song $(touch pwned) `id`; echo';
    const { songId, queueId } = await queuedSong(title, 'Artist\'s "Quoted"');
    await t.deps.db
      .update(songs)
      .set({ externalIds: { isrc: 'USABC2600009' } })
      .where(eq(songs.id, songId));
    const summary = await runDownloads(t.deps, { queueId });
    expect(summary).toMatchObject({ tried: 1, completed: 1, failed: 0 });
    const row = await entry(queueId);
    expect(row).toMatchObject({ status: 'completed', provider: 'command', downloadAttempts: 1 });
    expect((await song(songId)).filePresent).toBe(true);
    // Each value reached the program as one argument, untouched by any shell.
    const log = await fs.readFile(commandLog, 'utf8');
    expect(log).toContain(`${title}|Artist's "Quoted"|USABC2600009`);
    await expect(fs.access(path.join(process.cwd(), 'pwned'))).rejects.toThrow();
    // Its temporary folder is gone.
    expect(await fs.readdir(path.join(t.deps.config.dataDir, 'downloads-tmp'))).toEqual([]);
  }, 60_000);

  it('stops a command that runs past its timeout, and says so on the entry', async () => {
    await setProviders([
      // 5 s: the fake must start and write its pid before it is stopped (a loaded machine's shell
      // start can take a second); it then sleeps 30 s, far past the timeout.
      { name: 'command', enabled: true, timeout_seconds: 5, max_attempts: 1 },
      { name: 'inbox', enabled: false },
    ]);
    const { queueId } = await queuedSong('Slow Song', 'Sleepy');
    const summary = await runDownloads(t.deps, { queueId });
    expect(summary).toMatchObject({ tried: 1, failed: 1 });
    const row = await entry(queueId);
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(
      /External command: the download command did not finish within 5 s and was stopped/,
    );
    const pid = Number(await fs.readFile(path.join(work, 'slow.pid'), 'utf8'));
    await waitFor(
      async () => {
        try {
          process.kill(pid, 0);
          return undefined;
        } catch {
          return true;
        }
      },
      10_000,
      'the command to be killed',
    );
  }, 60_000);

  it('refuses output that is not audio, without retrying', async () => {
    const { queueId } = await queuedSong('Not Audio', 'Text Writer');
    await runDownloads(t.deps, { queueId });
    const row = await entry(queueId);
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/"song.mp3" is not audio ffmpeg can decode/);
    const tries = await t.deps.db
      .select()
      .from(downloadAttempts)
      .where(eq(downloadAttempts.queueId, queueId));
    expect(tries.map((a) => a.outcome)).toEqual(['unusable']);
  }, 60_000);

  it('passes on when the command finds nothing (exit 3), and retries a failure after a wait', async () => {
    const nothing = await queuedSong('Nothing Found', 'Unknown');
    await runDownloads(t.deps, { queueId: nothing.queueId });
    expect((await entry(nothing.queueId)).lastError).toBe(
      'External command: the download command found nothing for it: no such song in my store',
    );

    const flaky = await queuedSong('Flaky Song', 'Network');
    await runDownloads(t.deps, { queueId: flaky.queueId });
    const flakyEntry = await entry(flaky.queueId);
    expect(flakyEntry.status, flakyEntry.lastError ?? '').toBe('completed');
    const tries = await t.deps.db
      .select()
      .from(downloadAttempts)
      .where(eq(downloadAttempts.queueId, flaky.queueId))
      .orderBy(downloadAttempts.id);
    expect(tries.map((a) => a.outcome)).toEqual(['error', 'completed']);
    expect(tries[0]!.message).toMatch(/exited with status 1: network down/);
    expect(tries[1]!.startedAt.getTime() - tries[0]!.finishedAt!.getTime()).toBeGreaterThanOrEqual(150);
  }, 60_000);

  it("keeps to the provider's daily cap: the rest waits for tomorrow", async () => {
    const used = (await t.app.inject({ method: 'GET', url: '/api/downloads/providers' })).json().providers;
    const command = used.find((p: { name: string }) => p.name === 'command');
    expect(command.used_today).toBeGreaterThan(0);
    await setProviders([
      { name: 'command', enabled: true, daily_cap: command.used_today + 1, max_attempts: 1 },
      { name: 'inbox', enabled: false },
    ]);
    const first = await queuedSong('Capped One', 'Cap');
    const second = await queuedSong('Capped Two', 'Cap');
    await t.deps.db
      .update(downloadQueue)
      .set({ priorityScore: 200 })
      .where(eq(downloadQueue.id, first.queueId));
    const summary = await runDownloads(t.deps);
    expect(summary.completed).toBe(1);
    expect(summary.stoppedBecause).toMatch(
      /every enabled provider has reached its daily cap \(External command: \d+\)/,
    );
    expect((await entry(first.queueId)).status).toBe('completed');
    const waiting = await entry(second.queueId);
    expect(waiting.status).toBe('pending');
    expect(waiting.lastError).toMatch(/daily cap/);
  }, 60_000);

  it('Retry puts a failed entry back and the worker job tries it again', async () => {
    const { queueId } = await queuedSong('Retry Me', 'Second Chance');
    await t.deps.db
      .update(downloadQueue)
      .set({ status: 'failed', lastError: 'earlier failure' })
      .where(eq(downloadQueue.id, queueId));
    const response = await t.app.inject({ method: 'POST', url: `/api/downloads/${queueId}/retry` });
    expect(response.statusCode, response.body).toBe(200);
    const done = await waitFor(
      async () => {
        const row = await entry(queueId);
        return row.status === 'completed' ? row : undefined;
      },
      60_000,
      'the retried entry',
    );
    expect(done.downloadAttempts).toBe(1);
  }, 90_000);
});

describe('WCS_DOWNLOAD_COMMAND', () => {
  it('refuses shell syntax it would not honour', async () => {
    const { loadConfig } = await import('../../config.js');
    expect(() => loadConfig({ WCS_DOWNLOAD_COMMAND: 'fetch {title} > {out}/x.mp3' })).toThrow(
      /without a shell/,
    );
    expect(() => loadConfig({ WCS_DOWNLOAD_COMMAND: 'fetch $HOME {out}' })).toThrow(/shell variables/);
    expect(() => loadConfig({ WCS_DOWNLOAD_COMMAND: 'fetch {title}' })).toThrow(/must pass \{out\}/);
    expect(
      loadConfig({ WCS_DOWNLOAD_COMMAND: "fetch --title '{title} live' {out}" }).downloadCommand,
    ).toEqual(['fetch', '--title', '{title} live', '{out}']);
  });
});
