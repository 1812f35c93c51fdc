/**
 * The backfill of migration 0010: songs stored before sources were recorded get the source of
 * what could have written each value then, and a demo database's values (and popularity readings)
 * are marked demo. The migration's own UPDATE statements are run again on rows made to look old.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/migrate.js';
import { events, plays, songs, spotifyPopularityHistory } from '../../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { songSearchKey } from '../../text.js';

let database: TestDatabase;
let backfill: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  const text = await fs.readFile(path.join(MIGRATIONS_FOLDER, '0010_song_metadata.sql'), 'utf8');
  backfill = text
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => /^(--[^\n]*\n)*UPDATE/.test(statement));
});
afterAll(async () => {
  await database?.drop();
});

const base = (title: string) => ({ title, artist: 'Someone', searchKey: songSearchKey(title, 'Someone') });

async function sourcesAfterBackfill() {
  await database.db.execute(sql`update songs set field_sources = '{}'::jsonb`);
  for (const statement of backfill) await database.db.execute(sql.raw(statement));
  const rows = await database.db
    .select({ title: songs.title, sources: songs.fieldSources, isrc: songs.isrc })
    .from(songs);
  return Object.fromEntries(rows.map((row) => [row.title, { sources: row.sources, isrc: row.isrc }]));
}

describe('migration 0010 backfill', () => {
  it('names the writer of each stored value, and popularity as a DJ edit outside demo data', async () => {
    expect(backfill).toHaveLength(3);
    await database.db.insert(songs).values([
      {
        ...base('Tagged and analysed'),
        filePath: '/music/a.flac',
        filePresent: true,
        tags: { track: 1 },
        genre: 'Pop',
        bpm: 100,
        musicalKey: 'A minor',
        analyzedAt: new Date(),
        spotifyPopularity: 40,
      },
      { ...base('Heard by ACRCloud'), externalIds: { acrcloud: 'x', isrc: 'usabc1234567' }, album: 'Album' },
      { ...base('From a DJ program'), bpm: 122.5 },
    ]);
    const after = await sourcesAfterBackfill();
    expect(after['Tagged and analysed']!.sources).toEqual({
      title: 'tags',
      artist: 'tags',
      genre: 'tags',
      bpm: 'analyser',
      key: 'analyser',
      spotify_popularity: 'dj',
    });
    expect(after['Heard by ACRCloud']).toEqual({
      sources: { title: 'acrcloud', artist: 'acrcloud', album: 'acrcloud' },
      isrc: 'USABC1234567',
    });
    expect(after['From a DJ program']!.sources).toEqual({
      title: 'dj_software',
      artist: 'dj_software',
      bpm: 'dj_software',
    });
  });

  it('marks every value and popularity reading of a demo database as demo', async () => {
    const [song] = await database.db
      .insert(songs)
      .values({ ...base('Demo song'), spotifyPopularity: 88, energyLevel: 700 })
      .returning({ id: songs.id });
    const [event] = await database.db
      .insert(events)
      .values({ name: 'Demo event', startDate: '2026-01-01', endDate: '2026-01-02', timezone: 'UTC' })
      .returning({ id: events.id });
    await database.db
      .insert(plays)
      .values({ songId: song!.id, eventId: event!.id, startedAt: new Date(), source: 'demo' });
    await database.db
      .insert(spotifyPopularityHistory)
      .values({ songId: song!.id, fetchedAt: new Date(), popularity: 85, source: 'spotify' });
    const after = await sourcesAfterBackfill();
    expect(after['Demo song']!.sources).toEqual({
      title: 'demo',
      artist: 'demo',
      energy_level: 'demo',
      spotify_popularity: 'demo',
    });
    const readings = await database.db
      .select({ source: spotifyPopularityHistory.source })
      .from(spotifyPopularityHistory);
    expect(readings).toEqual([{ source: 'demo' }]);
  });
});
