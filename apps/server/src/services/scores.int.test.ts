import { DEFAULT_SETTINGS } from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../db/schema.js';
import { events, plays, settings, songs } from '../db/schema.js';
import type { JobQueue } from '../deps.js';
import { recomputeScoresJob } from '../jobs/recompute-scores.js';
import { createTestApp } from '../test/harness.js';
import { effectiveEventWeight, updateEvent } from './events.js';
import { RECOMPUTE_DELAY_SECONDS, scheduleScoreRecompute } from './recompute-schedule.js';
import {
  downloadPriorityOf,
  exposureOf,
  overplayScores,
  playAgeDays,
  recomputeScores,
  VACUUM_AFTER_SONGS,
  vacuumSongsAfterRecompute,
} from './scores.js';
import { updateSettings } from './settings.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

async function clearLibrary() {
  await t.deps.db.delete(plays);
  await t.deps.db.delete(songs);
  await t.deps.db.delete(events);
  await t.deps.db.delete(settings);
}

async function addSongs(
  count: number,
  fields: (i: number) => Partial<typeof songs.$inferInsert> = () => ({}),
) {
  const rows = await t.deps.db
    .insert(songs)
    .values(
      Array.from({ length: count }, (_, i) => ({
        title: `Song ${i}`,
        artist: 'Artist',
        searchKey: `song ${i} artist`,
        ...fields(i),
      })),
    )
    .returning();
  return rows.map((row) => row.id);
}

async function addEvent(fields: Partial<typeof events.$inferInsert>) {
  const [row] = await t.deps.db
    .insert(events)
    .values({ name: 'Event', startDate: '2025-01-01', endDate: '2025-01-03', timezone: 'UTC', ...fields })
    .returning();
  return row!;
}

const scoresOf = async () =>
  new Map(
    (
      await t.deps.db
        .select({
          id: songs.id,
          exposure: songs.exposure,
          overplay: songs.overplayScore,
          priority: songs.downloadPriority,
        })
        .from(songs)
    ).map((row) => [row.id, row]),
  );

describe('recomputeScores', () => {
  it('agrees with the TypeScript formulas on the same library', async () => {
    await clearLibrary();
    const now = new Date('2026-06-01T12:00:00Z');
    const next = random(20260601);
    const festival = await addEvent({ name: 'Festival', isFestival: true });
    const party = await addEvent({ name: 'Party' });
    const override = await addEvent({ name: 'Override', isFestival: true, weightOverride: 3.5 });
    const odd = await addEvent({ name: 'Odd weight', weightOverride: 2.3 });
    const eventList = [festival, party, override, odd];
    const songIds = await addSongs(40, (i) =>
      i % 4 === 0 ? { filePresent: true, filePath: `/music/${i}.mp3` } : {},
    );
    const playRows: Array<typeof plays.$inferInsert> = [];
    for (const songId of songIds.slice(0, 34)) {
      const count = 1 + Math.floor(next() * 8);
      for (let k = 0; k < count; k += 1) {
        const event = eventList[Math.floor(next() * eventList.length)]!;
        // Ages from 2 days in the future (a fast device clock) to 900 days back.
        const ageDays = -2 + next() * 902;
        playRows.push({
          songId,
          eventId: event.id,
          startedAt: new Date(now.getTime() - ageDays * DAY),
          source: 'manual',
        });
      }
    }
    // Two songs with the very same plays must tie exactly.
    const [twinA, twinB] = songIds.slice(34, 36) as [number, number];
    for (const songId of [twinA, twinB]) {
      for (const ageDays of [1.25, 40.5, 200]) {
        playRows.push({
          songId,
          eventId: festival.id,
          startedAt: new Date(now.getTime() - ageDays * DAY),
          source: 'manual',
        });
        playRows.push({
          songId,
          eventId: odd.id,
          startedAt: new Date(now.getTime() - ageDays * DAY),
          source: 'manual',
        });
      }
    }
    // A play from a mistyped year: 0.5^(age / 365) underflows a double; it must count as nothing.
    playRows.push({
      songId: songIds[1]!,
      eventId: festival.id,
      startedAt: new Date('0100-01-01T00:00:00Z'),
      source: 'manual',
    });
    await t.deps.db.insert(plays).values(playRows);

    const result = await recomputeScores(t.deps.db, now);
    expect(result.songsUpdated).toBeGreaterThan(30);

    const weights = DEFAULT_SETTINGS;
    const eventWeight = new Map(eventList.map((event) => [event.id, effectiveEventWeight(event, weights)]));
    const songRows = await t.deps.db.select().from(songs).orderBy(songs.id);
    const playsBySong = new Map<number, Array<{ weight: number; ageDays: number }>>();
    for (const play of await t.deps.db.select().from(plays)) {
      const list = playsBySong.get(play.songId) ?? [];
      list.push({ weight: eventWeight.get(play.eventId)!, ageDays: playAgeDays(play.startedAt, now) });
      playsBySong.set(play.songId, list);
    }
    const exposures = songRows.map((row) => exposureOf(playsBySong.get(row.id) ?? []));
    const expectedScores = overplayScores(exposures);
    songRows.forEach((row, index) => {
      expect(row.exposure).toBeCloseTo(exposures[index]!, 3);
      expect(row.overplayScore).toBe(expectedScores[index]);
      expect(row.downloadPriority).toBeCloseTo(
        downloadPriorityOf(playsBySong.get(row.id) ?? [], row.filePresent),
        6,
      );
    });
    const stored = await scoresOf();
    expect(stored.get(twinA)!.exposure).toBe(stored.get(twinB)!.exposure);
    expect(stored.get(twinA)!.overplay).toBe(stored.get(twinB)!.overplay);
    // The library is varied enough for the comparison to mean something.
    expect(new Set(expectedScores).size).toBeGreaterThan(15);
    expect(
      songRows.filter((row) => row.exposure === 0 && (playsBySong.get(row.id)?.length ?? 0) > 0).length,
    ).toBeGreaterThan(0);
  });

  it('writes only the rows whose values change', async () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect((await recomputeScores(t.deps.db, now)).songsUpdated).toBe(0);
    const [first] = await t.deps.db
      .select({ id: songs.id })
      .from(songs)
      .where(sql`${songs.exposure} > 0`)
      .limit(1);
    await t.deps.db.update(songs).set({ exposure: 0, overplayScore: 0 }).where(eq(songs.id, first!.id));
    expect((await recomputeScores(t.deps.db, now)).songsUpdated).toBe(1);
  });

  it('gives the hand-computed numbers for a small library', async () => {
    await clearLibrary();
    const now = new Date('2026-06-01T00:00:00Z');
    const festival = await addEvent({ isFestival: true });
    const party = await addEvent({});
    const [a, b, c, d] = (await addSongs(4, (i) =>
      i === 3 ? { filePresent: true, filePath: '/m/d.mp3' } : {},
    )) as [number, number, number, number];
    const at = (ageDays: number) => new Date(now.getTime() - ageDays * DAY);
    await t.deps.db.insert(plays).values([
      // a: exposure 12 × 1 + 1 × 0.5 + 12 × 0.25 = 15.5;
      // priority 12 + 1 × 0.5^(90/365) + 12 × 0.5^(180/365) = 12 + 0.842895 + 8.525662 = 21.368557,
      // kept to 3 decimals: 21.369.
      { songId: a, eventId: festival.id, startedAt: at(0), source: 'manual' },
      { songId: a, eventId: party.id, startedAt: at(90), source: 'manual' },
      { songId: a, eventId: festival.id, startedAt: at(180), source: 'manual' },
      // b: one party play today: exposure 1, priority 1.
      { songId: b, eventId: party.id, startedAt: at(0), source: 'manual' },
      // c: a festival play 400 days ago: no exposure; priority 12 × 0.5^(400/365) = 5.614167 -> 5.614.
      { songId: c, eventId: festival.id, startedAt: at(400), source: 'manual' },
      // d has a file: exposure 12, priority 0.
      { songId: d, eventId: festival.id, startedAt: at(0), source: 'manual' },
    ]);
    await recomputeScores(t.deps.db, now);
    const stored = await scoresOf();
    expect(stored.get(a)).toMatchObject({ exposure: 15.5, overplay: 100 });
    expect(stored.get(a)!.priority).toBe(21.369);
    // Exposed songs: b (1), d (12), a (15.5): b 1/3 -> 33, d 2/3 -> 67, a 3/3 -> 100.
    expect(stored.get(b)).toEqual({ id: b, exposure: 1, overplay: 33, priority: 1 });
    expect(stored.get(c)!.exposure).toBe(0);
    expect(stored.get(c)!.overplay).toBe(0);
    expect(stored.get(c)!.priority).toBe(5.614);
    expect(stored.get(d)).toEqual({ id: d, exposure: 12, overplay: 67, priority: 0 });
  });
});

/** The send calls that reach the real queue, recorded. */
function recordingQueue() {
  const sent: Array<{ name: string; data: unknown }> = [];
  const jobs: Pick<JobQueue, 'send'> = {
    send: async (name, data, options) => {
      sent.push({ name, data });
      return t.deps.jobs.send(name, data, options);
    },
  };
  return { jobs, sent };
}

describe('what schedules a recompute', () => {
  it('a settings change does, a save without change does not', async () => {
    const { jobs, sent } = recordingQueue();
    await updateSettings(t.deps.db, t.deps.config, { party_weight: 1 }, jobs);
    expect(sent).toEqual([]);
    await updateSettings(t.deps.db, t.deps.config, { overplay_mid_threshold: 65 }, jobs);
    expect(sent).toEqual([{ name: 'scores.recompute', data: { reason: 'settings changed' } }]);
  });

  it("an event's is_festival or weight_override change does, other edits do not", async () => {
    const event = await addEvent({ name: 'Weekly' });
    const { jobs, sent } = recordingQueue();
    await updateEvent(t.deps.db, event.id, { event_name: 'Weekly social', location: 'Berlin' }, jobs);
    await updateEvent(t.deps.db, event.id, { is_festival: false, weight_override: null }, jobs);
    expect(sent).toEqual([]);
    await updateEvent(t.deps.db, event.id, { is_festival: true }, jobs);
    await updateEvent(t.deps.db, event.id, { weight_override: 4 }, jobs);
    expect(sent.map((entry) => entry.data)).toEqual([
      { reason: `event ${event.id} weight changed` },
      { reason: `event ${event.id} weight changed` },
    ]);
  });
});

interface JobRow {
  id: string;
  state: string;
  data: { reason: string };
  created_on: Date;
  started_on: Date | null;
}

const jobsSince = async (name: string, since: Date) =>
  (
    await t.deps.pool.query<JobRow>(
      'select id, state, data, created_on, started_on from pgboss.job where name = $1 and created_on >= $2 order by created_on',
      [name, since],
    )
  ).rows;

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits for the start of the next debounce slot, so that no earlier send shares it and a quick burst fits in it. */
async function startOfNextSlot() {
  const slotMs = RECOMPUTE_DELAY_SECONDS * 1000;
  await new Promise((resolve) => setTimeout(resolve, slotMs - (Date.now() % slotMs) + 50));
}

describe('the scores.recompute job', () => {
  it('runs once for a burst of triggers, after the last of them', async () => {
    await startOfNextSlot();
    const since = new Date();
    const answers: boolean[] = [];
    for (let i = 0; i < 10; i += 1) answers.push(await scheduleScoreRecompute(t.deps.jobs, `burst ${i}`));
    const lastTrigger = new Date();
    expect(answers).toEqual([true, false, false, false, false, false, false, false, false, false]);

    const [run] = await waitFor(async () => {
      const rows = await jobsSince('scores.recompute', since);
      return rows.some((row) => row.state === 'completed') ? rows : undefined;
    });
    const rows = await jobsSince('scores.recompute', since);
    expect(rows).toHaveLength(1);
    expect(run!.data).toEqual({ reason: 'burst 0' });
    expect(run!.started_on!.getTime()).toBeGreaterThan(lastTrigger.getTime());
    // It asks for a download enqueue and a playlist regeneration in turn. Both are coalesced per
    // 5 s slot: an earlier test's run may have asked in the same slot, and then that one job, still
    // to start after this run began, is the one that follows it.
    const followers = async (name: string) =>
      (
        await t.deps.pool.query<{ data: unknown }>(
          `select data from pgboss.job where name = $1 and start_after > $2
             and created_on > $2::timestamptz - make_interval(secs => $3)`,
          [name, run!.started_on!, RECOMPUTE_DELAY_SECONDS],
        )
      ).rows;
    expect((await followers('downloads.enqueue')).length).toBeGreaterThan(0);
    const regenerations = await followers('playlists.regenerate');
    expect(regenerations.length).toBeGreaterThan(0);
    expect(regenerations.map((row) => row.data)).toContainEqual(
      expect.objectContaining({ reason: expect.stringMatching(/^scores recomputed \(/) }),
    );
  });

  it("is scheduled by PUT /api/events/:id when the event's weight changes", async () => {
    const event = await addEvent({ name: 'Routed' });
    await startOfNextSlot();
    const since = new Date();
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/events/${event.id}`,
      payload: { is_festival: true },
    });
    expect(response.statusCode).toBe(200);
    expect((await jobsSince('scores.recompute', since)).map((row) => row.data)).toEqual([
      { reason: `event ${event.id} weight changed` },
    ]);
  });

  it('changes the scores after a settings change through the API', async () => {
    await clearLibrary();
    const festival = await addEvent({ isFestival: true });
    const party = await addEvent({});
    const [onFestival, onParty] = (await addSongs(2)) as [number, number];
    const recent = new Date(Date.now() - 60_000);
    await t.deps.db.insert(plays).values([
      { songId: onFestival, eventId: festival.id, startedAt: recent, source: 'manual' },
      { songId: onParty, eventId: party.id, startedAt: recent, source: 'manual' },
      { songId: onParty, eventId: party.id, startedAt: recent, source: 'manual' },
    ]);
    await recomputeScores(t.deps.db);
    let stored = await scoresOf();
    // Festival 12 against party 2 × 1: the festival song ranks first.
    expect(stored.get(onFestival)).toMatchObject({ overplay: 100 });
    expect(stored.get(onParty)).toMatchObject({ overplay: 50 });

    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      payload: { party_weight: 10 },
    });
    expect(response.statusCode).toBe(200);
    // Now 12 against 2 × 10 = 20: the party song ranks first, once the job has run.
    stored = await waitFor(async () => {
      const current = await scoresOf();
      return current.get(onParty)!.overplay === 100 ? current : undefined;
    });
    expect(stored.get(onParty)!.exposure).toBeCloseTo(20, 3);
    expect(stored.get(onFestival)).toMatchObject({ overplay: 50 });
  });
});

describe('the songs table after a recompute', () => {
  /** Heap fetches of the exports' index-only scan of the whole library (migration 0026). */
  async function heapFetchesOfExportScan(): Promise<number> {
    const client = await t.deps.pool.connect();
    try {
      await client.query('begin');
      // Few enough songs for a sequential scan and a sort to look cheaper: ask for the index.
      await client.query('set local enable_seqscan = off');
      await client.query('set local enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }>(
        `explain (analyze, format json) select artist, title, id, album, genre, bpm, key, file_path
           from songs order by artist, title, id`,
      );
      await client.query('rollback');
      const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
      expect(plan['Node Type']).toBe('Index Only Scan');
      expect(plan['Index Name']).toBe('songs_artist_title_id_idx');
      return plan['Heap Fetches'] as number;
    } finally {
      client.release();
    }
  }

  it('is vacuumed by the job when many songs were rewritten, so exports read its index alone', async () => {
    await t.settleJobs();
    await clearLibrary();
    // Autovacuum must not do the job's work while the test runs (it naps for a minute).
    await t.deps.pool.query('alter table songs set (autovacuum_enabled = false)');
    try {
      const event = await addEvent({});
      const songIds = await addSongs(VACUUM_AFTER_SONGS + 200);
      const recent = new Date(Date.now() - 60_000);
      await t.deps.db.insert(plays).values(
        songIds.map((songId) => ({
          songId,
          eventId: event.id,
          startedAt: recent,
          source: 'manual' as const,
        })),
      );
      // New and rewritten rows leave their pages not all-visible: the scan reads the table.
      expect(await heapFetchesOfExportScan()).toBeGreaterThan(0);

      // The test cluster commits asynchronously (db/embedded.ts), and a row whose commit is not yet
      // flushed cannot be marked visible to all; the server's own cluster commits synchronously,
      // as this connection does.
      const client = await t.deps.pool.connect();
      try {
        await client.query('set synchronous_commit = on');
        await recomputeScoresJob({ ...t.deps, db: drizzle(client, { schema }) }, { reason: 'test' });
      } finally {
        client.release();
      }
      expect((await scoresOf()).get(songIds[0]!)!.exposure).toBeGreaterThan(0);
      expect(await heapFetchesOfExportScan()).toBe(0);
    } finally {
      await t.deps.pool.query('alter table songs reset (autovacuum_enabled)');
    }
  });

  it('is left to autovacuum after a small recompute, and a refused vacuum is reported, not raised', async () => {
    const warnings: string[] = [];
    expect(await vacuumSongsAfterRecompute(t.deps.db, VACUUM_AFTER_SONGS - 1, (m) => warnings.push(m))).toBe(
      false,
    );
    expect(warnings).toEqual([]);
    // VACUUM cannot run in a transaction: the database refuses it as it refuses a role without
    // the right to vacuum the table, and the scores already written stand.
    await t.deps.db.transaction(async (tx) => {
      expect(await vacuumSongsAfterRecompute(tx as never, VACUUM_AFTER_SONGS, (m) => warnings.push(m))).toBe(
        false,
      );
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^songs not vacuumed after 1000 scores changed \(autovacuum will\): /),
    ]);
  });
});
