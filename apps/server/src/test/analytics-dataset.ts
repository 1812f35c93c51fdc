import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { events, socials, songs } from '../db/schema.js';
import { recordPlays } from '../services/plays.js';
import { songSearchKey } from '../text.js';

/**
 * The small hand-made library every analytics integration test computes its expected numbers
 * from (docs/metrics.md, Analytics, works through the same data). Events are in UTC, so a play's
 * time window is its UTC hour.
 *
 * | song    | artist       | genre        | release    | bpm   | energy | valence | dance | pop  | overplay |
 * |---------|--------------|--------------|------------|-------|--------|---------|-------|------|----------|
 * | Alpha   | Artist One   | Pop          | 2026-01-10 | 100   | 800    | 600     | 700   | 80   | 90       |
 * | Bravo   | artist one   | Pop          | 2020-05-01 | 90    | 500    | 400     | 600   | 60   | 80       |
 * | Charlie | Artist Two   | Blues/Jazz   | 2025-12-01 | 80    | 200    | 300     | 500   | -    | 79.9     |
 * | Delta   | Artist Three | Contemporary | -          | 110.5 | 399    | -       | -     | 40   | 30       |
 * | Echo    | Artist Four  | -            | 2019-01-01 | -     | -      | -       | -     | 90   | 10       |
 * | Foxtrot | Artist Five  | Acoustic     | 2024-06-01 | 70    | 1000   | 100     | 300   | -    | 10       |
 *
 * Spring Party (party, 2026-03-14): one social, Saturday 2026-03-14.
 *   p1 Alpha 20:10 (20-22), p2 Bravo 20:40 (20-22), p3 Charlie 21:30 (20-22), p4 Alpha 22:15 (22-00),
 *   p5 Delta 23:00 (22-00), p6 Echo 00:30 on the 15th (00-02)
 * Summer Festival (festival, 2026-07-10 to 12): socials Friday 2026-07-10 and Saturday 2026-07-11.
 *   Friday:   p7 Alpha 20:05 (20-22), p8 Charlie 22:30 (22-00), p9 Echo 01:00 (00-02), p10 Alpha 02:30 (02-04)
 *   Saturday: p11 Delta 20:30 (20-22), p12 Echo 21:00 (20-22), p13 Charlie 23:10 (22-00),
 *             p14 Bravo 00:10 on the 12th (00-02), p15 Charlie 19:00 (no window)
 * Foxtrot is never played.
 */
export async function seedAnalyticsDataset(db: Db) {
  const songRows = await db
    .insert(songs)
    .values(
      [
        ['Alpha', 'Artist One', 'Pop', '2026-01-10', 100, 800, 600, 700, 80, 90],
        ['Bravo', 'artist one', 'Pop', '2020-05-01', 90, 500, 400, 600, 60, 80],
        ['Charlie', 'Artist Two', 'Blues/Jazz', '2025-12-01', 80, 200, 300, 500, null, 79.9],
        ['Delta', 'Artist Three', 'Contemporary', null, 110.5, 399, null, null, 40, 30],
        ['Echo', 'Artist Four', null, '2019-01-01', null, null, null, null, 90, 10],
        ['Foxtrot', 'Artist Five', 'Acoustic', '2024-06-01', 70, 1000, 100, 300, null, 10],
      ].map(([title, artist, genre, releaseDate, bpm, energy, valence, dance, popularity, overplay]) => ({
        title: title as string,
        artist: artist as string,
        searchKey: songSearchKey(title as string, artist as string),
        genre: genre as string | null,
        releaseDate: releaseDate as string | null,
        bpm: bpm as number | null,
        energyLevel: energy as number | null,
        valence: valence as number | null,
        danceability: dance as number | null,
        spotifyPopularity: popularity as number | null,
        overplayScore: overplay as number,
      })),
    )
    .returning({ id: songs.id });
  const [alpha, bravo, charlie, delta, echo, foxtrot] = songRows.map((row) => row.id) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const eventRows = await db
    .insert(events)
    .values([
      { name: 'Spring Party', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' },
      {
        name: 'Summer Festival',
        startDate: '2026-07-10',
        endDate: '2026-07-12',
        timezone: 'UTC',
        isFestival: true,
      },
    ])
    .returning({ id: events.id });
  const [spring, summer] = eventRows.map((row) => row.id) as [number, number];

  const play = (songId: number, eventId: number, at: string) => ({
    songId,
    eventId,
    startedAt: new Date(`${at}Z`),
    source: 'manual' as const,
  });
  await recordPlays(db, [
    play(alpha, spring, '2026-03-14T20:10:00'),
    play(bravo, spring, '2026-03-14T20:40:00'),
    play(charlie, spring, '2026-03-14T21:30:00'),
    play(alpha, spring, '2026-03-14T22:15:00'),
    play(delta, spring, '2026-03-14T23:00:00'),
    play(echo, spring, '2026-03-15T00:30:00'),
    play(alpha, summer, '2026-07-10T20:05:00'),
    play(charlie, summer, '2026-07-10T22:30:00'),
    play(echo, summer, '2026-07-11T01:00:00'),
    play(alpha, summer, '2026-07-11T02:30:00'),
    play(delta, summer, '2026-07-11T20:30:00'),
    play(echo, summer, '2026-07-11T21:00:00'),
    play(charlie, summer, '2026-07-11T23:10:00'),
    play(bravo, summer, '2026-07-12T00:10:00'),
    play(charlie, summer, '2026-07-11T19:00:00'),
  ]);

  const socialRows = await db.select().from(socials);
  const socialOn = (eventId: number, date: string) => {
    const social = socialRows.find((row) => row.eventId === eventId && row.socialDate === date);
    if (!social) throw new Error(`the dataset has no social of event ${eventId} on ${date}`);
    return social.id;
  };
  if (socialRows.length !== 3) throw new Error(`expected 3 socials, found ${socialRows.length}`);

  return {
    songs: { alpha, bravo, charlie, delta, echo, foxtrot },
    events: { spring, summer },
    socials: {
      springSaturday: socialOn(spring, '2026-03-14'),
      summerFriday: socialOn(summer, '2026-07-10'),
      summerSaturday: socialOn(summer, '2026-07-11'),
    },
  };
}

export type AnalyticsDataset = Awaited<ReturnType<typeof seedAnalyticsDataset>>;

/** Sets a song's release date (tests whose numbers depend on today's date). */
export async function setReleaseDate(db: Db, songId: number, releaseDate: string | null): Promise<void> {
  await db.update(songs).set({ releaseDate }).where(eq(songs.id, songId));
}
