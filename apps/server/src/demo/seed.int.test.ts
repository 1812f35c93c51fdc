import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TIME_WINDOWS } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibraryFolder } from '../services/library/library-import.js';
import { getEditableSettings } from '../services/settings.js';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';
import { DEMO_ANALYSIS_VERSION, DEMO_SCALE, type DemoPlan, planDemoData } from './generate.js';
import { DatabaseNotEmptyError, type SeedResult, seedDemoData } from './seed.js';

let t: TestDatabase;
let folder: string;
let plan: DemoPlan;
let result: SeedResult;

const rows = async <T>(query: ReturnType<typeof sql>) => (await t.db.execute(query)).rows as T[];

beforeAll(async () => {
  t = await createTestDatabase();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-demo-seed-'));
  plan = planDemoData({
    seed: 3,
    now: new Date('2026-02-01T12:00:00Z'),
    scale: {
      ...DEMO_SCALE,
      songs: 150,
      events: 12,
      upcomingEvents: 1,
      plays: 900,
      unrelatedScrapedEvents: 4,
      recordings: 2,
    },
  });
  // A plan this small has few plays per song: lower the download rules so the queue fills.
  await getEditableSettings(t.db); // creates the settings row with its defaults
  await t.db.execute(sql`update settings set download_priority_threshold = 0, minimum_plays_to_download = 2`);
  result = await seedDemoData(t.db, plan, {
    libraryDir: path.join(folder, 'library'),
    playlistsDir: path.join(folder, 'playlists'),
  });
}, 120_000);

afterAll(async () => {
  await t?.drop();
  if (folder) await fs.rm(folder, { recursive: true, force: true });
});

describe('seedDemoData', () => {
  it('stores the plan: songs, events, plays, recordings, readings and scraped events', async () => {
    const [counts] = await rows<Record<string, number>>(sql`
      select (select count(*) from songs)::int as songs, (select count(*) from events)::int as events,
             (select count(*) from plays)::int as plays, (select count(*) from recordings)::int as recordings,
             (select count(*) from spotify_popularity_history)::int as readings,
             (select count(*) from scraped_events)::int as scraped, (select count(*) from scrape_runs)::int as runs`);
    expect(counts).toEqual({
      songs: 150,
      events: plan.events.length,
      plays: 900,
      recordings: 2,
      readings: plan.popularityHistory.length,
      scraped: plan.scrapedEvents.length,
      runs: 1,
    });
    expect(result).toMatchObject({ songs: 150, plays: 900, recordings: 2 });
  });

  it('makes one social per night with plays through recordPlays, with the windows the plan placed', async () => {
    const nights = plan.nights.filter((night) => night.playCount > 0).length;
    expect(result.socials).toBe(nights);
    const [socials] = await rows<{ total: number }>(sql`select count(*)::int as total from socials`);
    expect(socials!.total).toBe(nights);
    const byWindow = await rows<{ time_window: string; plays: number }>(
      sql`select time_window, count(*)::int as plays from plays group by time_window order by time_window`,
    );
    const planned = new Map<string, number>();
    for (let p = 0; p < plan.plays.count; p += 1) {
      const window = TIME_WINDOWS[plan.plays.window[p]!]!;
      planned.set(window, (planned.get(window) ?? 0) + 1);
    }
    expect(Object.fromEntries(byWindow.map((row) => [row.time_window, row.plays]))).toEqual(
      Object.fromEntries(planned),
    );
  });

  it('writes a real placeholder file for every song with a file, whose hash and size the row holds', async () => {
    const songs = await rows<{
      file_path: string | null;
      content_hash: string | null;
      file_size_bytes: number | null;
      file_present: boolean;
      analysis_version: string | null;
    }>(sql`select file_path, content_hash, file_size_bytes, file_present, analysis_version from songs`);
    const withFiles = songs.filter((song) => song.file_present);
    expect(withFiles.length).toBe(plan.songs.filter((song) => song.hasFile).length);
    for (const song of withFiles) {
      const audio = await fs.readFile(song.file_path!);
      expect(createHash('sha256').update(audio).digest('hex')).toBe(song.content_hash);
      expect(audio.length).toBe(Number(song.file_size_bytes));
      expect(audio.subarray(0, 4).toString()).toBe('RIFF');
      expect(song.analysis_version).toBe(DEMO_ANALYSIS_VERSION);
    }
    for (const song of songs.filter((row) => !row.file_present)) {
      expect(song).toMatchObject({ file_path: null, content_hash: null, analysis_version: null });
    }
  });

  it('links recorded plays to processed recordings, and gives real overplay scores', async () => {
    const recorded = await rows<{ source: string; plays: number; linked: number }>(sql`
      select source, count(*)::int as plays, count(recording_id)::int as linked from plays group by source order by source`);
    const recordedCount = Array.from(plan.plays.recording).filter((r) => r >= 0).length;
    expect(recorded).toEqual([
      { source: 'demo', plays: 900 - recordedCount, linked: 0 },
      { source: 'recording', plays: recordedCount, linked: recordedCount },
    ]);
    const [processed] = await rows<{ total: number }>(
      sql`select count(*)::int as total from recordings where processed`,
    );
    expect(processed!.total).toBe(2);
    const [scores] = await rows<{ scored: number; max: number }>(
      sql`select count(*) filter (where overplay_score > 0)::int as scored, max(overplay_score) as max from songs`,
    );
    expect(scores!.scored).toBeGreaterThan(0);
    expect(scores!.max).toBe(100);
  });

  it('fills the download queue with the candidates, never completed, a few failed with the reason', async () => {
    const queue = await rows<{ status: string; entries: number; errors: number; with_file: number }>(sql`
      select q.status, count(*)::int as entries, count(q.last_error)::int as errors,
             count(*) filter (where s.file_present)::int as with_file
      from download_queue q join songs s on s.id = q.song_id group by q.status order by q.status`);
    const [candidates] = await rows<{ total: number }>(sql`
      select count(*)::int as total from (select s.id from songs s join plays p on p.song_id = s.id
      where not s.file_present group by s.id having count(*) >= 2) c`);
    expect(queue.reduce((sum, row) => sum + row.entries, 0)).toBe(candidates!.total);
    const byStatus = Object.fromEntries(queue.map((row) => [row.status, row]));
    expect(Object.keys(byStatus).sort()).toEqual(['failed', 'pending']);
    expect(byStatus.pending!.entries).toBeGreaterThan(0);
    expect(byStatus.pending!.errors).toBe(0);
    expect(byStatus.failed!.errors).toBe(byStatus.failed!.entries);
    expect(queue.every((row) => row.with_file === 0)).toBe(true);
  });

  it('leaves the library consistent with a library import of its own folder', async () => {
    const summary = await importLibraryFolder(t.db, path.join(folder, 'library'));
    expect(summary).toMatchObject({ imported: 0, updated: 0, missing_marked: 0, failed: [] });
    expect(summary.unchanged).toBe(plan.songs.filter((song) => song.hasFile).length);
  });

  it('refuses a database that already holds data', async () => {
    await expect(
      seedDemoData(t.db, plan, {
        libraryDir: path.join(folder, 'again'),
        playlistsDir: path.join(folder, 'p2'),
      }),
    ).rejects.toBeInstanceOf(DatabaseNotEmptyError);
  });
});
