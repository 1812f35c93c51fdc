import { TIME_WINDOWS } from '@wcs/contract';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { events, recordings, scrapedEvents, socials, songs, spotifyPopularityHistory } from '../db/schema.js';
import type { DemoPlan } from '../demo/generate.js';
import { eventRows, recordingRows, scrapedEventRows, songRows, writePlaceholderFiles } from '../demo/seed.js';
import { foldPlaySummary } from '../services/analytics/play-summary.js';
import { socialNameFor } from '../services/plays.js';
import { zoneOffsetMs } from '../zoned-time.js';

/**
 * Loads a large plan (a million plays) into an empty database fast, for the API benchmark: the
 * same rows `seedDemoData` writes, but plays go in as multi-row INSERTs from arrays (unnest)
 * instead of through `recordPlays`, with their time window and social computed here from the
 * plan (which places every play as `timeWindowOf` and `nightDateOf` do; the generator's test
 * checks that).
 */

export interface BulkLoadResult {
  songs: number;
  events: number;
  socials: number;
  plays: number;
  timings: Record<string, number>;
}

/** Rows per INSERT of plays: 9 arrays of this length per statement. */
const PLAY_BATCH = 50_000;
/** Rows per INSERT through drizzle: under PostgreSQL's 65,535 parameters for ~25 columns. */
const ROW_BATCH = 2000;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<number[]>): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += ROW_BATCH)
    ids.push(...(await insert(rows.slice(start, start + ROW_BATCH))));
  return ids;
}

/** 'HH:MM:SS' on the wall clock of `timeZone` at an instant. */
function localTime(utcMs: number, timeZone: string): string {
  return new Date(utcMs + zoneOffsetMs(utcMs, timeZone)).toISOString().slice(11, 19);
}

export async function bulkLoadPlan(
  db: Db,
  pool: pg.Pool,
  plan: DemoPlan,
  libraryDir: string,
  log: (message: string) => void,
): Promise<BulkLoadResult> {
  const timings: Record<string, number> = {};
  let startedAt = performance.now();
  const step = (name: string, message: string) => {
    timings[name] = Math.round(performance.now() - startedAt);
    log(`${message} (${(timings[name] / 1000).toFixed(1)} s)`);
    startedAt = performance.now();
  };

  const files = await writePlaceholderFiles(plan, libraryDir);
  step('songFiles', `wrote ${files.size} placeholder song files`);
  // RETURNING gives the ids in the order of the VALUES list, so ids[i] belongs to plan row i.
  const songIds = await insertInBatches(songRows(plan, files), async (batch) =>
    (await db.insert(songs).values(batch).returning({ id: songs.id })).map((row) => row.id),
  );
  const eventIds = await insertInBatches(eventRows(plan), async (batch) =>
    (await db.insert(events).values(batch).returning({ id: events.id })).map((row) => row.id),
  );
  const recordingIds = await insertInBatches(recordingRows(plan, eventIds), async (batch) =>
    (await db.insert(recordings).values(batch).returning({ id: recordings.id })).map((row) => row.id),
  );

  // One social per night with plays; its hours are those of its first and last play, as
  // recordPlays sets them.
  const nightsWithPlays = plan.nights
    .map((night, index) => ({ night, index }))
    .filter(({ night }) => night.playCount > 0);
  const socialRows = nightsWithPlays.map(({ night }) => {
    const timezone = plan.events[night.event]!.timezone;
    const last = night.firstPlay + night.playCount - 1;
    return {
      eventId: eventIds[night.event]!,
      name: socialNameFor(night.date),
      socialDate: night.date,
      startTime: localTime(plan.plays.startedAtMs[night.firstPlay]!, timezone),
      endTime: localTime(plan.plays.endedAtMs[last]!, timezone),
    };
  });
  const socialIdByNight = new Int32Array(plan.nights.length).fill(-1);
  const socialIds = await insertInBatches(socialRows, async (batch) =>
    (await db.insert(socials).values(batch).returning({ id: socials.id })).map((row) => row.id),
  );
  nightsWithPlays.forEach(({ index }, i) => {
    socialIdByNight[index] = socialIds[i]!;
  });
  step('rows', `stored ${songIds.length} songs, ${eventIds.length} events, ${socialIds.length} socials`);

  // As a bulk load is done (PostgreSQL's "Populating a Database"): the secondary indexes of plays
  // and the triggers that keep the summary song_window_plays are set aside while the rows go in,
  // and rebuilt once at the end. Inserted one batch at a time into seven indexes and a trigger, 10
  // million plays took over an hour; the indexes and the summary come out the same either way.
  const { rows: playIndexes } = await pool.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
     where schemaname = current_schema() and tablename = 'plays'
       and indexname not in (select conname from pg_constraint where conrelid = 'plays'::regclass)`,
  );
  for (const index of playIndexes) await pool.query(`drop index "${index.name}"`);
  await pool.query('alter table plays disable trigger user');

  for (let start = 0; start < plan.plays.count; start += PLAY_BATCH) {
    const end = Math.min(plan.plays.count, start + PLAY_BATCH);
    const size = end - start;
    const songId = new Array<number>(size);
    const eventId = new Array<number>(size);
    const socialId = new Array<number>(size);
    const recordingId = new Array<number | null>(size);
    const startedAt = new Array<number>(size);
    const endedAt = new Array<number>(size);
    const window = new Array<string>(size);
    const source = new Array<string>(size);
    const confidence = new Array<number | null>(size);
    for (let p = start; p < end; p += 1) {
      const i = p - start;
      const nightIndex = plan.plays.night[p]!;
      const recording = plan.plays.recording[p]!;
      songId[i] = songIds[plan.plays.song[p]!]!;
      eventId[i] = eventIds[plan.nights[nightIndex]!.event]!;
      socialId[i] = socialIdByNight[nightIndex]!;
      recordingId[i] = recording >= 0 ? recordingIds[recording]! : null;
      startedAt[i] = plan.plays.startedAtMs[p]! / 1000;
      endedAt[i] = plan.plays.endedAtMs[p]! / 1000;
      window[i] = TIME_WINDOWS[plan.plays.window[p]!]!;
      source[i] = recording >= 0 ? 'recording' : 'demo';
      confidence[i] = recording >= 0 ? plan.plays.confidence[p]! : null;
    }
    await pool.query(
      `insert into plays (song_id, event_id, social_id, recording_id, started_at, ended_at, time_window, source, confidence)
       select s, e, so, r, to_timestamp(st), to_timestamp(en), w, src, c
       from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::float8[], $6::float8[], $7::text[], $8::text[], $9::real[])
         as t(s, e, so, r, st, en, w, src, c)`,
      [songId, eventId, socialId, recordingId, startedAt, endedAt, window, source, confidence],
    );
    if (end === plan.plays.count || (end / PLAY_BATCH) % 5 === 0) log(`  ${end} plays`);
  }
  step('plays', `stored ${plan.plays.count} plays`);
  for (const index of playIndexes) await pool.query(index.definition);
  // The summary from the plays, as migration 0003 backfills it; then the triggers keep it exact.
  await pool.query(`insert into song_window_plays (song_id, time_window, play_count)
    select song_id, coalesce(time_window, ''), count(*)::integer from plays group by 1, 2`);
  await pool.query('alter table plays enable trigger user');
  step('plays-indexes', `rebuilt ${playIndexes.length} indexes of plays and the song window summary`);
  // The play summary as migration 0014 backfills it: every song with plays dirty, one fold.
  await pool.query('insert into play_summary_dirty (song_id) select distinct song_id from song_window_plays');
  await foldPlaySummary(pool);
  step('play-summary', 'folded the play summary');

  await insertInBatches(
    plan.popularityHistory.map((reading) => ({
      songId: songIds[reading.song]!,
      fetchedAt: new Date(reading.fetchedAtMs),
      popularity: reading.popularity,
    })),
    async (batch) => {
      await db.insert(spotifyPopularityHistory).values(batch);
      return [];
    },
  );
  await insertInBatches(scrapedEventRows(plan), async (batch) => {
    await db.insert(scrapedEvents).values(batch);
    return [];
  });
  step(
    'extras',
    `stored ${plan.popularityHistory.length} popularity readings, ${plan.scrapedEvents.length} scraped events`,
  );

  // Fresh statistics, as autovacuum would have them on a library that grew over years.
  await pool.query('vacuum analyze');
  step('analyze', 'vacuum analyze');
  return {
    songs: songIds.length,
    events: eventIds.length,
    socials: socialIds.length,
    plays: plan.plays.count,
    timings,
  };
}
