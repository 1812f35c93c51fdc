import { GENRES, TIME_WINDOWS } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { mapGenre } from '../services/library/genre-map.js';
import { nightDateOf, timeWindowOf } from '../services/plays.js';
import { songSearchKey } from '../text.js';
import {
  calendarDateText,
  DEMO_ANALYSIS_VERSION,
  DEMO_SCALE,
  type DemoScale,
  planDemoData,
} from './generate.js';

const SMALL: DemoScale = {
  ...DEMO_SCALE,
  songs: 400,
  events: 40,
  upcomingEvents: 2,
  plays: 4000,
  unrelatedScrapedEvents: 8,
  recordings: 3,
};
const NOW = new Date('2026-03-10T12:00:00Z');
const plan = planDemoData({ seed: 7, now: NOW, scale: SMALL });

describe('planDemoData', () => {
  it('gives the same plan for the same seed, and another for another seed', () => {
    expect(planDemoData({ seed: 7, now: NOW, scale: SMALL })).toEqual(plan);
    const other = planDemoData({ seed: 8, now: NOW, scale: SMALL });
    expect(other.songs.map((song) => song.title)).not.toEqual(plan.songs.map((song) => song.title));
  });

  it('makes the counts it was asked for', () => {
    expect(plan.songs).toHaveLength(400);
    expect(plan.plays.count).toBe(4000);
    expect(plan.events.filter((event) => !event.isUpcoming)).toHaveLength(40);
    expect(plan.events.filter((event) => event.isUpcoming)).toHaveLength(2);
    expect(plan.recordings).toHaveLength(3);
    const nightPlays = plan.nights.reduce((sum, night) => sum + night.playCount, 0);
    expect(nightPlays).toBe(4000);
    // Song identity: no two songs share a title and artist (as search keys fold them).
    expect(new Set(plan.songs.map((song) => songSearchKey(song.title, song.artist))).size).toBe(400);
  });

  it('makes festivals of 3-4 nights and one-night parties, in the past three years', () => {
    const past = plan.events.filter((event) => !event.isUpcoming);
    const nightsOf = (index: number) => plan.nights.filter((night) => night.event === index).length;
    for (const [index, event] of plan.events.entries()) {
      if (event.isUpcoming) {
        expect(event.startDate > '2026-03-10').toBe(true);
        expect(nightsOf(index)).toBe(0);
      } else if (event.isFestival) {
        expect([3, 4]).toContain(nightsOf(index));
      } else {
        expect(nightsOf(index)).toBe(1);
      }
    }
    expect(past.some((event) => event.isFestival)).toBe(true);
    expect(past.every((event) => event.startDate >= '2023-03-10' && event.endDate < '2026-03-10')).toBe(true);
    expect(new Set(plan.events.map((event) => event.timezone)).size).toBeGreaterThan(2);
  });

  it('gives songs every attribute in its range, files to most, and says the analysis is generated', () => {
    for (const song of plan.songs) {
      expect(GENRES).toContain(song.genre);
      expect(mapGenre(song.genreTag)).toBe(song.genre);
      expect(song.bpm).toBeGreaterThanOrEqual(70);
      expect(song.bpm).toBeLessThanOrEqual(135);
      for (const value of [song.energy, song.danceability, song.valence]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1000);
      }
      expect(song.durationMs).toBeGreaterThanOrEqual(150_000);
      expect(song.durationMs).toBeLessThanOrEqual(330_000);
      expect(song.releaseDate >= '2016-03-01' && song.releaseDate <= '2026-03-10').toBe(true);
      expect(song.analyzedAtMs !== null).toBe(song.hasFile);
    }
    const withFiles = plan.songs.filter((song) => song.hasFile).length / plan.songs.length;
    expect(withFiles).toBeGreaterThan(0.78);
    expect(withFiles).toBeLessThan(0.92);
    expect(DEMO_ANALYSIS_VERSION).toMatch(/generated.*not analysed/);
    // More recent releases than old ones: the last two years hold more than a fifth of ten.
    const recent = plan.songs.filter((song) => song.releaseDate >= '2024-03-10').length;
    expect(recent / plan.songs.length).toBeGreaterThan(0.3);
  });

  it('places every play in its night and time window as the product computes them', () => {
    for (let p = 0; p < plan.plays.count; p += 1) {
      const night = plan.nights[plan.plays.night[p]!]!;
      const event = plan.events[night.event]!;
      const startedAt = new Date(plan.plays.startedAtMs[p]!);
      expect(timeWindowOf(startedAt, event.timezone)).toBe(TIME_WINDOWS[plan.plays.window[p]!]);
      expect(nightDateOf(startedAt, event.timezone)).toBe(night.date);
      expect(plan.plays.endedAtMs[p]).toBeGreaterThanOrEqual(plan.plays.startedAtMs[p]!);
      // Nobody plays a song before it is released.
      expect(plan.songs[plan.plays.song[p]!]!.releaseDate <= night.date).toBe(true);
    }
  });

  it('follows the night: mean BPM at 22-00 and 00-02 above the warm-up (20-22) and the mellow end (04-06)', () => {
    const sums = TIME_WINDOWS.map(() => ({ bpm: 0, energy: 0, plays: 0 }));
    for (let p = 0; p < plan.plays.count; p += 1) {
      const song = plan.songs[plan.plays.song[p]!]!;
      const sum = sums[plan.plays.window[p]!]!;
      sum.bpm += song.bpm;
      sum.energy += song.energy;
      sum.plays += 1;
    }
    const mean = Object.fromEntries(
      TIME_WINDOWS.map((window, i) => [
        window,
        { bpm: sums[i]!.bpm / sums[i]!.plays, energy: sums[i]!.energy / sums[i]!.plays },
      ]),
    );
    for (const peak of ['22-00', '00-02'] as const) {
      for (const calm of ['20-22', '04-06'] as const) {
        expect(mean[peak]!.bpm, `${peak} vs ${calm}`).toBeGreaterThan(mean[calm]!.bpm + 3);
        expect(mean[peak]!.energy, `${peak} vs ${calm}`).toBeGreaterThan(mean[calm]!.energy);
      }
    }
  });

  it('plays popular songs far more often than the rest (Zipf-like)', () => {
    const counts = new Array<number>(plan.songs.length).fill(0);
    for (let p = 0; p < plan.plays.count; p += 1) counts[plan.plays.song[p]!]! += 1;
    const meanPlays = (from: number, to: number) => {
      const ranks = plan.songs.map((song, i) => ({ rank: song.playRank, plays: counts[i]! }));
      const chosen = ranks.filter((song) => song.rank >= from && song.rank < to);
      return chosen.reduce((sum, song) => sum + song.plays, 0) / chosen.length;
    };
    // The 20 most popular songs against the less popular half (measured without the Zipf weight: 0.7×;
    // the window fit and one play per song per night keep it from being larger at this scale).
    expect(meanPlays(0, 20)).toBeGreaterThan(2.5 * meanPlays(200, 400));
  });

  it('links the most recent nights to recordings with confidences, and the rest to no recording', () => {
    const recordedNights = new Set(plan.recordings.map((recording) => recording.night));
    for (let p = 0; p < plan.plays.count; p += 1) {
      const isRecorded = recordedNights.has(plan.plays.night[p]!);
      expect(plan.plays.recording[p]! >= 0).toBe(isRecorded);
      if (isRecorded) {
        expect(plan.plays.confidence[p]).toBeGreaterThanOrEqual(0.5);
        expect(plan.plays.confidence[p]).toBeLessThanOrEqual(0.99);
      }
    }
    const lastNightDate = plan.nights
      .map((night) => night.date)
      .sort()
      .at(-1);
    expect(plan.recordings.some((recording) => plan.nights[recording.night]!.date === lastNightDate)).toBe(
      true,
    );
  });

  it('lists scraped near-duplicates of demo festivals, unrelated events and unparsed dates', () => {
    const nearDuplicates = plan.scrapedEvents.filter((row) => row.nearDuplicateOf !== null);
    expect(nearDuplicates.length).toBeGreaterThan(0);
    for (const row of nearDuplicates) {
      const event = plan.events[row.nearDuplicateOf!]!;
      expect(row.countryCode).toBe(event.countryCode);
      const days = Math.abs(Date.parse(row.startDate!) - Date.parse(event.startDate)) / 86_400_000;
      expect(days).toBeLessThanOrEqual(3);
    }
    expect(plan.scrapedEvents.filter((row) => row.startDate === null).map((row) => row.dateText)).toEqual([
      'TBA 2026',
      'Dates to be announced',
    ]);
    expect(new Set(plan.scrapedEvents.map((row) => row.sourceKey)).size).toBe(plan.scrapedEvents.length);
  });
});

describe('calendarDateText', () => {
  it('writes dates as the events calendar does', () => {
    expect(calendarDateText('2026-09-24', '2026-09-28')).toBe('Sep 24 - 28, 2026');
    expect(calendarDateText('2025-10-30', '2025-11-02')).toBe('Oct 30 - Nov 2, 2025');
    expect(calendarDateText('2026-12-28', '2027-01-03')).toBe('Dec 28 2026 - Jan 3 2027');
    expect(calendarDateText('2026-05-01', '2026-05-01')).toBe('May 1, 2026');
  });
});
