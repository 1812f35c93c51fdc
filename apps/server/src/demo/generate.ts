import { GENRES, type Genre, TIME_WINDOWS, type TimeWindow } from '@wcs/contract';
import { DEMO_VERSION_PREFIX } from '../db/schema.js';
import { songSearchKey } from '../text.js';
import { addDays, dateMs, isoDate, zonedToUtc, zoneOffsetMs } from '../zoned-time.js';
import { clamp, Random, WeightedSampler } from './random.js';
import {
  ADJECTIVES,
  FESTIVAL_FORMATS,
  FESTIVAL_PLACES,
  FIRST_NAMES,
  GENRE_LEAN,
  GENRE_SHARE,
  GENRE_TAGS,
  KEYS,
  LAST_NAMES,
  NOUNS,
  OBJECTS,
  OTHER_FORMATS,
  PARTY_PLACES,
  PARTY_SERIES,
  VERBS,
  VERSIONS,
} from './words.js';

/**
 * The demo data generator: a seeded plan of a DJ's library and three years of nights, made of
 * plain values only (no database), so that the same seed and the same `now` give the same plan
 * everywhere. `demo/seed.ts` writes a plan through the product's own services; the API
 * benchmark (`bench/`) bulk-loads a larger one. What the data is and is not:
 * docs/metrics.md.
 */

/** How much of everything to generate. */
export interface DemoScale {
  songs: number;
  /** Past events, each with nights of plays. */
  events: number;
  /** Festivals announced in the coming months (no plays yet). */
  upcomingEvents: number;
  plays: number;
  /** How far back the past events reach. */
  years: number;
  /** Share of past events that are festivals (several nights); the rest are one-night parties. */
  festivalShare: number;
  /** Nights of a festival, from-to. */
  festivalNights: readonly [number, number];
  /** Share of songs that have an audio file in the library. */
  fileShare: number;
  /** Share of songs with a monthly Spotify popularity history. */
  popularityHistoryShare: number;
  /** Scraped calendar rows that match no demo event (near-duplicates come on top). */
  unrelatedScrapedEvents: number;
  /** Most recent nights that were recorded (their plays come from recognition). */
  recordings: number;
}

export const DEMO_SCALE: DemoScale = {
  songs: 2000,
  events: 210,
  upcomingEvents: 6,
  plays: 30_000,
  years: 3,
  festivalShare: 0.18,
  festivalNights: [3, 4],
  fileShare: 0.85,
  popularityHistoryShare: 0.25,
  unrelatedScrapedEvents: 40,
  recordings: 12,
};

/** Written on every generated song that has a file: these values were made up, not measured. */
export const DEMO_ANALYSIS_VERSION = `${DEMO_VERSION_PREFIX}1 (generated values, not analysed from audio)`;

export interface PlannedSong {
  title: string;
  artist: string;
  album: string | null;
  genre: Genre;
  /** The genre tag as a file would carry it ('R&B', 'Folk'); maps onto `genre`. */
  genreTag: string;
  releaseDate: string;
  bpm: number;
  key: string;
  energy: number;
  danceability: number;
  valence: number;
  spotifyPopularity: number;
  durationMs: number;
  hasFile: boolean;
  /** For songs with a file: when the (generated) analysis happened, epoch ms. */
  analyzedAtMs: number | null;
  analysisDurationMs: number | null;
  track: number | null;
  /** 0 is the song DJs reach for most (Zipf rank of how often it is played). */
  playRank: number;
}

export interface PlannedEvent {
  name: string;
  startDate: string;
  endDate: string;
  location: string;
  countryCode: string;
  timezone: string;
  isFestival: boolean;
  weightOverride: number | null;
  /** Upcoming events have no nights yet. */
  isUpcoming: boolean;
}

export interface PlannedNight {
  event: number;
  /** The evening the night began on (the social's date). */
  date: string;
  /** Minutes after midnight of `date`, wall clock in the event's zone (26 * 60 = 02:00 next day). */
  startMinute: number;
  endMinute: number;
  /** This night's plays are plays[firstPlay .. firstPlay + playCount). */
  firstPlay: number;
  playCount: number;
}

/** Every play, column by column (a million of them fit in typed arrays, not in objects). */
export interface PlannedPlays {
  count: number;
  song: Int32Array;
  night: Int32Array;
  startedAtMs: Float64Array;
  endedAtMs: Float64Array;
  /** Index into TIME_WINDOWS, computed as `timeWindowOf` does. */
  window: Int8Array;
  /** Index into recordings, or -1 for a play that is not from a recording. */
  recording: Int32Array;
  /** Recognition confidence (0-1) of recorded plays, NaN for the others. */
  confidence: Float64Array;
}

export interface PlannedRecording {
  night: number;
  sessionId: string;
  filename: string;
  source: string;
}

export interface PlannedPopularity {
  song: number;
  fetchedAtMs: number;
  popularity: number;
}

export interface PlannedScrapedEvent {
  sourceKey: string;
  name: string;
  url: string | null;
  dateText: string;
  startDate: string | null;
  endDate: string | null;
  location: string;
  countryCode: string;
  continent: string;
  /** The demo event this row is a near-duplicate of, or null. */
  nearDuplicateOf: number | null;
  review: { action: 'approved' | 'rejected'; notes: string; atMs: number } | null;
  scrapedAtMs: number;
}

export interface DemoPlan {
  seed: number;
  nowMs: number;
  scale: DemoScale;
  songs: PlannedSong[];
  events: PlannedEvent[];
  nights: PlannedNight[];
  plays: PlannedPlays;
  recordings: PlannedRecording[];
  popularityHistory: PlannedPopularity[];
  scrapedEvents: PlannedScrapedEvent[];
}

// ---------------------------------------------------------------------------------------------
// The night's curve

/**
 * What the room wants in each time window: warm-up (20-22), peak (22-02), mellow (02-06).
 * Songs are drawn with a weight that falls off with their distance from the window's BPM and
 * energy (0-1000), so the averages follow the curve without every song sitting on it.
 */
export const WINDOW_TARGETS: Record<TimeWindow, { bpm: number; energy: number }> = {
  '20-22': { bpm: 92, energy: 430 },
  '22-00': { bpm: 103, energy: 640 },
  '00-02': { bpm: 105, energy: 690 },
  '02-04': { bpm: 96, energy: 520 },
  '04-06': { bpm: 88, energy: 380 },
};
const BPM_SPREAD = 8;
const ENERGY_SPREAD = 180;
/** Late nights lean to blues and acoustic, the peak to pop and hip-hop. */
const GENRE_BY_WINDOW: Record<TimeWindow, Record<Genre, number>> = {
  '20-22': { Acoustic: 1.3, 'Blues/Jazz': 1.2, Pop: 1.0, 'Hip-Hop/R&B': 0.9, Contemporary: 1.1 },
  '22-00': { Acoustic: 0.8, 'Blues/Jazz': 0.8, Pop: 1.3, 'Hip-Hop/R&B': 1.3, Contemporary: 1.0 },
  '00-02': { Acoustic: 0.7, 'Blues/Jazz': 0.9, Pop: 1.2, 'Hip-Hop/R&B': 1.4, Contemporary: 1.0 },
  '02-04': { Acoustic: 1.1, 'Blues/Jazz': 1.3, Pop: 0.9, 'Hip-Hop/R&B': 1.0, Contemporary: 1.2 },
  '04-06': { Acoustic: 1.4, 'Blues/Jazz': 1.6, Pop: 0.7, 'Hip-Hop/R&B': 0.8, Contemporary: 1.2 },
};
/** Zipf-like popularity: weight 1 / (rank + offset)^exponent. */
const ZIPF_OFFSET = 25;
const ZIPF_EXPONENT = 0.95;
/** A new release is played up to (1 + boost) times as much, fading over months. */
const FRESHNESS_FLOOR = 0.4;
const FRESHNESS_BOOST = 1.8;
const FRESHNESS_DAYS = 200;

const DAY_MS = 86_400_000;
const WINDOW_START_MINUTE = 20 * 60;
/** No play after 05:50: the last window ends at 06:00. */
const LATEST_MINUTE = 29 * 60 + 50;

/** The time window index of a wall-clock time in minutes after the night's midnight. */
const windowOfMinute = (minute: number) => clamp(Math.floor((minute - WINDOW_START_MINUTE) / 120), 0, 4);

// ---------------------------------------------------------------------------------------------
// Songs

/** English plural of the NOUNS: Kisses, Melodies, Echoes, Hearts. */
const plural = (noun: string) =>
  /(s|sh|ch|x|o)$/.test(noun)
    ? `${noun}es`
    : /[^aeiou]y$/.test(noun)
      ? `${noun.slice(0, -1)}ies`
      : `${noun}s`;

function makeArtists(random: Random, count: number): string[] {
  const artists = new Set<string>();
  let attempts = 0;
  while (artists.size < count && attempts < count * 50) {
    attempts += 1;
    const kind = random.next();
    let name: string;
    if (kind < 0.55) name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    else if (kind < 0.75) name = `The ${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`;
    else if (kind < 0.87) name = `${random.pick(NOUNS)} & the ${plural(random.pick(NOUNS))}`;
    else
      name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)} & ${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    artists.add(name);
  }
  return [...artists];
}

function makeTitle(random: Random): string {
  const kind = random.next();
  let title: string;
  if (kind < 0.55) title = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
  else if (kind < 0.8) title = `${random.pick(VERBS)} ${random.pick(OBJECTS)}`;
  else if (kind < 0.9) title = plural(random.pick(NOUNS));
  else title = `${random.pick(NOUNS)} of ${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`;
  return random.chance(0.08) ? title + random.pick(VERSIONS) : title;
}

function pickGenre(random: Random): Genre {
  let roll = random.next();
  for (const genre of GENRES) {
    roll -= GENRE_SHARE[genre];
    if (roll < 0) return genre;
  }
  return 'Contemporary';
}

function planSongs(random: Random, scale: DemoScale, nowMs: number): PlannedSong[] {
  const artists = makeArtists(random, Math.max(1, Math.round(scale.songs / 4)));
  const albumsByArtist = new Map<string, string[]>();
  const keys = new Set<string>();
  const ranks = random.shuffle(Array.from({ length: scale.songs }, (_, i) => i));
  const songs: PlannedSong[] = [];
  while (songs.length < scale.songs) {
    // Some artists have many songs, most a few.
    const artist = artists[Math.floor(artists.length * random.next() ** 1.5)]!;
    const title = makeTitle(random);
    const key = songSearchKey(title, artist);
    if (keys.has(key)) continue;
    keys.add(key);

    const genre = pickGenre(random);
    // Ten years of releases, more of them recent: age = 10 years × u^1.6.
    const releaseMs = nowMs - Math.floor(3650 * random.next() ** 1.6) * DAY_MS;
    const lean = GENRE_LEAN[genre];
    const bpm = Math.round(clamp(random.normal(100 + lean.bpm, 11), 70, 135) * 10) / 10;
    const energy = Math.round(clamp(500 + (bpm - 100) * 14 + lean.energy + random.normal(0, 130), 0, 1000));
    const danceability = Math.round(clamp(random.normal(genre === 'Hip-Hop/R&B' ? 690 : 640, 110), 0, 1000));
    const valence = Math.round(clamp(random.normal(500, 170) + 0.2 * (energy - 500), 0, 1000));
    const playRank = ranks[songs.length]!;
    const spotifyPopularity = Math.round(
      clamp(92 - 70 * (playRank / scale.songs) ** 0.6 + random.normal(0, 6), 0, 100),
    );
    const hasFile = random.chance(scale.fileShare);
    let album: string | null = null;
    if (random.chance(0.85)) {
      const albums = albumsByArtist.get(artist) ?? [];
      if (albums.length === 0 || (albums.length < 3 && random.chance(0.3))) {
        albums.push(`${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`);
        albumsByArtist.set(artist, albums);
      }
      album = random.pick(albums);
    }
    // Analysed some time after release (and within the last two years), before now.
    const analyzedFrom = Math.max(releaseMs, nowMs - 730 * DAY_MS);
    songs.push({
      title,
      artist,
      album,
      genre,
      genreTag: random.pick(GENRE_TAGS[genre]),
      releaseDate: isoDate(releaseMs),
      bpm,
      key: random.pick(KEYS),
      energy,
      danceability,
      valence,
      spotifyPopularity,
      durationMs: Math.round(clamp(random.normal(228, 32), 150, 330) * 1000),
      hasFile,
      analyzedAtMs: hasFile ? Math.round(random.between(analyzedFrom, nowMs)) : null,
      analysisDurationMs: hasFile ? Math.round(clamp(random.normal(7000, 2000), 1500, 20_000)) : null,
      track: album ? random.int(1, 14) : null,
      playRank,
    });
  }
  return songs;
}

// ---------------------------------------------------------------------------------------------
// Events and nights

/** The date on or after `date` that falls on `weekday` (0 Sunday ... 6 Saturday). */
function nextWeekday(date: string, weekday: number): string {
  const current = new Date(dateMs(date)).getUTCDay();
  return addDays(date, (weekday - current + 7) % 7);
}

interface EventWithNights extends PlannedEvent {
  nightCount: number;
}

function planFestivals(random: Random, scale: DemoScale, startMs: number, endMs: number): EventWithNights[] {
  const festivals = Math.round(scale.events * scale.festivalShare);
  const seriesCount = Math.max(1, Math.ceil((festivals + scale.upcomingEvents) / Math.max(1, scale.years)));
  const editions: EventWithNights[] = [];
  const upcoming: EventWithNights[] = [];
  const firstYear = new Date(startMs).getUTCFullYear();
  const lastYear = new Date(endMs).getUTCFullYear() + 1;
  for (let index = 0; index < seriesCount; index += 1) {
    const where = FESTIVAL_PLACES[index % FESTIVAL_PLACES.length]!;
    const format = FESTIVAL_FORMATS[Math.floor(index / FESTIVAL_PLACES.length) % FESTIVAL_FORMATS.length]!;
    const round = Math.floor(index / (FESTIVAL_PLACES.length * FESTIVAL_FORMATS.length));
    const base = format(where.city) + (round > 0 ? ` ${round + 1}` : '');
    const nights = random.int(scale.festivalNights[0], scale.festivalNights[1]);
    const dayOfYear = random.int(10, 340);
    // One series in ten is a major festival whose nights weigh more than the festival weight.
    const weightOverride = index % 10 === 3 ? 20 : null;
    for (let year = firstYear; year <= lastYear; year += 1) {
      const anchor = isoDate(Date.UTC(year, 0, 1) + (dayOfYear + random.int(-3, 3)) * DAY_MS);
      // The last night is a Sunday: a 3-night festival starts on Friday, a 4-night one on Thursday.
      const startDate = addDays(nextWeekday(anchor, 0), -(nights - 1));
      const edition: EventWithNights = {
        name: `${base} ${year}`,
        startDate,
        endDate: addDays(startDate, nights - 1),
        location: `${where.city}, ${where.country}`,
        countryCode: where.countryCode,
        timezone: where.timezone,
        isFestival: true,
        weightOverride,
        isUpcoming: false,
        nightCount: nights,
      };
      const startsMs = dateMs(startDate);
      const endsMs = dateMs(edition.endDate) + DAY_MS;
      if (startsMs >= startMs && endsMs <= endMs) editions.push(edition);
      else if (startsMs > endMs + 7 * DAY_MS && startsMs < endMs + 200 * DAY_MS)
        upcoming.push({ ...edition, isUpcoming: true, nightCount: 0 });
    }
  }
  random.shuffle(editions);
  random.shuffle(upcoming);
  return [...editions.slice(0, festivals), ...upcoming.slice(0, scale.upcomingEvents)];
}

function planParties(random: Random, count: number, startMs: number, endMs: number): EventWithNights[] {
  const dates: Array<{ date: string; series: number; where: number }> = [];
  for (let i = 0; i < count; i += 1) {
    const where = random.chance(0.75) ? random.int(0, 3) : random.int(4, PARTY_PLACES.length - 1);
    const series = random.chance(0.8) ? random.int(0, 1) : 2;
    const from = isoDate(startMs + Math.floor(random.next() * (endMs - startMs - 8 * DAY_MS)));
    dates.push({ date: nextWeekday(from, PARTY_SERIES[series]!.weekday), series, where });
  }
  dates.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const numbers = new Map<string, number>();
  return dates.map(({ date, series, where }) => {
    const at = PARTY_PLACES[where]!;
    const name = `${PARTY_SERIES[series]!.name} ${at.city}`;
    const number = (numbers.get(name) ?? 0) + 1;
    numbers.set(name, number);
    return {
      name: `${name} #${number}`,
      startDate: date,
      endDate: date,
      location: `${at.city}, ${at.country}`,
      countryCode: at.countryCode,
      timezone: at.timezone,
      isFestival: false,
      weightOverride: null,
      isUpcoming: false,
      nightCount: 1,
    };
  });
}

function planNights(random: Random, events: EventWithNights[]): PlannedNight[] {
  const nights: PlannedNight[] = [];
  events.forEach((event, index) => {
    for (let n = 0; n < event.nightCount; n += 1) {
      const isLastNight = n === event.nightCount - 1;
      let startMinute: number;
      let endMinute: number;
      if (!event.isFestival) {
        startMinute = WINDOW_START_MINUTE + random.int(0, 30);
        endMinute = 24 * 60 + random.int(30, 150);
      } else if (isLastNight) {
        startMinute = WINDOW_START_MINUTE + random.int(0, 60);
        endMinute = 26 * 60 + random.int(0, 120);
      } else {
        startMinute = WINDOW_START_MINUTE + random.int(0, 60);
        endMinute = Math.min(LATEST_MINUTE, 27 * 60 + random.int(30, 165));
      }
      nights.push({
        event: index,
        date: addDays(event.startDate, n),
        startMinute,
        endMinute,
        firstPlay: 0,
        playCount: 0,
      });
    }
  });
  return nights;
}

/** Splits `total` plays over the nights in proportion to their length (largest remainders). */
function allocatePlays(nights: PlannedNight[], total: number): void {
  const lengths = nights.map((night) => night.endMinute - night.startMinute);
  const sum = lengths.reduce((a, b) => a + b, 0);
  const exact = lengths.map((length) => (total * length) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, i) => ({ i, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    counts[i]! += 1;
    left -= 1;
  }
  let first = 0;
  nights.forEach((night, i) => {
    night.firstPlay = first;
    night.playCount = counts[i]!;
    first += counts[i]!;
  });
}

// ---------------------------------------------------------------------------------------------
// Plays

/** Draw weights of every song for each time window, for nights in one month. */
function monthSamplers(songs: PlannedSong[], monthStartMs: number): WeightedSampler[] {
  return TIME_WINDOWS.map((window) => {
    const target = WINDOW_TARGETS[window];
    const genreWeight = GENRE_BY_WINDOW[window];
    const weights = new Float64Array(songs.length);
    songs.forEach((song, i) => {
      const ageDays = (monthStartMs - dateMs(song.releaseDate)) / DAY_MS;
      // Nobody plays a song before it is released.
      if (ageDays < 0) return;
      const zipf = 1 / (song.playRank + ZIPF_OFFSET) ** ZIPF_EXPONENT;
      const bpmFit = Math.exp(-0.5 * ((song.bpm - target.bpm) / BPM_SPREAD) ** 2);
      const energyFit = Math.exp(-0.5 * ((song.energy - target.energy) / ENERGY_SPREAD) ** 2);
      const freshness = FRESHNESS_FLOOR + FRESHNESS_BOOST * Math.exp(-ageDays / FRESHNESS_DAYS);
      weights[i] = zipf * bpmFit * energyFit * genreWeight[song.genre] * freshness;
    });
    return new WeightedSampler(weights);
  });
}

function planPlays(
  random: Random,
  songs: PlannedSong[],
  events: PlannedEvent[],
  nights: PlannedNight[],
  total: number,
): PlannedPlays {
  const plays: PlannedPlays = {
    count: total,
    song: new Int32Array(total),
    night: new Int32Array(total),
    startedAtMs: new Float64Array(total),
    endedAtMs: new Float64Array(total),
    window: new Int8Array(total),
    recording: new Int32Array(total).fill(-1),
    confidence: new Float64Array(total).fill(Number.NaN),
  };
  const samplersByMonth = new Map<string, WeightedSampler[]>();
  nights.forEach((night, nightIndex) => {
    if (night.playCount === 0) return;
    const event = events[night.event]!;
    const month = night.date.slice(0, 7);
    let samplers = samplersByMonth.get(month);
    if (!samplers) {
      samplers = monthSamplers(songs, dateMs(`${month}-01`));
      samplersByMonth.set(month, samplers);
    }
    const midnightMs = dateMs(night.date);
    const offsetAtStart = zoneOffsetMs(
      zonedToUtc(night.date, night.startMinute, event.timezone),
      event.timezone,
    );
    const offsetAtEnd = zoneOffsetMs(zonedToUtc(night.date, night.endMinute, event.timezone), event.timezone);
    // Nights without a daylight-saving change (nearly all) convert with one offset.
    const hasOneOffset = offsetAtStart === offsetAtEnd;
    const spacing = (night.endMinute - night.startMinute) / night.playCount;
    const played = new Set<number>();
    for (let k = 0; k < night.playCount; k += 1) {
      const p = night.firstPlay + k;
      const second = Math.round((night.startMinute + (k + 0.15 + 0.7 * random.next()) * spacing) * 60);
      let startedAtMs: number;
      let localMinute: number;
      if (hasOneOffset) {
        startedAtMs = midnightMs + second * 1000 - offsetAtStart;
        localMinute = second / 60;
      } else {
        startedAtMs = zonedToUtc(night.date, second / 60, event.timezone);
        localMinute = (startedAtMs + zoneOffsetMs(startedAtMs, event.timezone) - midnightMs) / 60_000;
      }
      const window = windowOfMinute(localMinute);
      let song = samplers[window]!.draw(random);
      // A DJ rarely plays a song twice in one night.
      for (let attempt = 0; attempt < 8 && played.has(song); attempt += 1)
        song = samplers[window]!.draw(random);
      if (song < 0) song = random.int(0, songs.length - 1);
      played.add(song);
      plays.song[p] = song;
      plays.night[p] = nightIndex;
      plays.startedAtMs[p] = startedAtMs;
      plays.window[p] = window;
    }
    // A play ends when its song ends, or when the next one starts if that is sooner.
    for (let k = 0; k < night.playCount; k += 1) {
      const p = night.firstPlay + k;
      const songEnd = plays.startedAtMs[p]! + songs[plays.song[p]!]!.durationMs;
      const nextStart = k + 1 < night.playCount ? plays.startedAtMs[p + 1]! - 2000 : Number.POSITIVE_INFINITY;
      plays.endedAtMs[p] = Math.max(plays.startedAtMs[p]!, Math.min(songEnd, nextStart));
    }
  });
  return plays;
}

function planRecordings(
  random: Random,
  scale: DemoScale,
  nights: PlannedNight[],
  plays: PlannedPlays,
): PlannedRecording[] {
  const recorded = nights
    .map((night, index) => ({ night, index }))
    .filter(({ night }) => night.playCount > 0)
    .sort((a, b) => (a.night.date < b.night.date ? -1 : a.night.date > b.night.date ? 1 : a.index - b.index))
    .slice(-scale.recordings);
  return recorded.map(({ night, index }, r) => {
    for (let p = night.firstPlay; p < night.firstPlay + night.playCount; p += 1) {
      plays.recording[p] = r;
      plays.confidence[p] = Math.round(clamp(random.normal(0.84, 0.08), 0.5, 0.99) * 100) / 100;
    }
    const isBrowser = random.chance(0.7);
    return {
      night: index,
      sessionId: `demo-${night.date.replaceAll('-', '')}-${r + 1}`,
      filename: `recording_${night.date}_${r + 1}.webm`,
      source: isBrowser ? 'web_browser' : 'raspberry-pi',
    };
  });
}

function planPopularityHistory(
  random: Random,
  scale: DemoScale,
  songs: PlannedSong[],
  nowMs: number,
): PlannedPopularity[] {
  const chosen = random
    .shuffle(Array.from({ length: songs.length }, (_, i) => i))
    .slice(0, Math.round(songs.length * scale.popularityHistoryShare))
    .sort((a, b) => a - b);
  const now = new Date(nowMs);
  const history: PlannedPopularity[] = [];
  for (const song of chosen) {
    // A monthly reading for the last 12 months, walking back from today's popularity.
    let popularity = songs[song]!.spotifyPopularity;
    const points: PlannedPopularity[] = [];
    for (let monthsAgo = 0; monthsAgo < 12; monthsAgo += 1) {
      const fetchedAtMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1, 4);
      if (fetchedAtMs > nowMs || fetchedAtMs < dateMs(songs[song]!.releaseDate)) continue;
      points.push({ song, fetchedAtMs, popularity });
      popularity = Math.round(clamp(popularity + random.normal(-0.8, 4), 0, 100));
    }
    history.push(...points.reverse());
  }
  return history;
}

// ---------------------------------------------------------------------------------------------
// Scraped events

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The calendar's date text: 'Sep 24 - 28, 2026', 'Oct 30 - Nov 2, 2025', 'Dec 28 2026 - Jan 3 2027'. */
export function calendarDateText(start: string, end: string): string {
  const [sy, sm, sd] = start.split('-').map(Number) as [number, number, number];
  const [ey, em, ed] = end.split('-').map(Number) as [number, number, number];
  const s = MONTHS[sm - 1]!;
  const e = MONTHS[em - 1]!;
  if (start === end) return `${s} ${sd}, ${sy}`;
  if (sy !== ey) return `${s} ${sd} ${sy} - ${e} ${ed} ${ey}`;
  if (sm !== em) return `${s} ${sd} - ${e} ${ed}, ${sy}`;
  return `${s} ${sd} - ${ed}, ${sy}`;
}

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The calendar lives on a reserved example domain: these rows are made up. */
export const DEMO_CALENDAR_URL = 'https://calendar.example/wcs/events';
const CALENDAR_URL = DEMO_CALENDAR_URL;
/** Every scraped row comes from one fetch of the calendar, this long before `now`. */
export const DEMO_SCRAPE_AGE_MS = 3 * 3_600_000;

/** A calendar's spelling of a demo festival's name: the near-duplicates detection should find. */
function nameVariant(random: Random, name: string): string {
  const withoutYear = name.replace(/ \d{4}$/, '');
  const year = name.match(/\d{4}$/)?.[0] ?? '';
  const variants = [
    `The ${withoutYear} ${year}`,
    `${withoutYear} WCS ${year}`,
    `${withoutYear.toUpperCase()} ${year}`,
    `${withoutYear} Festival ${year}`,
    withoutYear,
  ];
  return random.pick(variants).trim();
}

function planScrapedEvents(
  random: Random,
  scale: DemoScale,
  events: PlannedEvent[],
  nowMs: number,
): PlannedScrapedEvent[] {
  const rows: PlannedScrapedEvent[] = [];
  const sourceKeys = new Set<string>();
  const add = (row: Omit<PlannedScrapedEvent, 'sourceKey' | 'scrapedAtMs'>) => {
    let sourceKey = row.url ?? `${row.name}|${row.dateText}`;
    while (sourceKeys.has(sourceKey)) sourceKey += '+';
    sourceKeys.add(sourceKey);
    rows.push({ ...row, sourceKey, scrapedAtMs: nowMs - DEMO_SCRAPE_AGE_MS });
  };
  const placeOf = new Map(FESTIVAL_PLACES.map((where) => [where.countryCode, where]));

  // Near-duplicates: the calendar lists most recent and upcoming festivals the DJ also has.
  const recentFrom = nowMs - 400 * DAY_MS;
  events.forEach((event, index) => {
    if (!event.isFestival || dateMs(event.startDate) < recentFrom || !random.chance(0.75)) return;
    const shift = random.int(-3, 3);
    const start = addDays(event.startDate, shift);
    const end = addDays(event.endDate, shift + (random.chance(0.4) ? 1 : 0));
    const name = nameVariant(random, event.name);
    add({
      name,
      url: `${CALENDAR_URL}/${slug(/\d{4}$/.test(name) ? name : `${name} ${start.slice(0, 4)}`)}`,
      dateText: calendarDateText(start, end),
      startDate: start,
      endDate: end,
      location: event.location,
      countryCode: event.countryCode,
      continent: placeOf.get(event.countryCode)?.continent ?? 'Europe',
      nearDuplicateOf: index,
      review: null,
    });
  });

  // Events the DJ has nothing to do with, a year either side of today.
  for (let i = 0; i < scale.unrelatedScrapedEvents; i += 1) {
    const where = random.pick(FESTIVAL_PLACES);
    const nights = random.int(2, 4);
    const start = nextWeekday(isoDate(nowMs + random.int(-365, 365) * DAY_MS), 5);
    const end = addDays(start, nights - 1);
    const name = `${random.pick(OTHER_FORMATS)(where.city)} ${start.slice(0, 4)}`;
    const isReviewed = random.chance(0.15);
    add({
      name,
      url: random.chance(0.9) ? `${CALENDAR_URL}/${slug(name)}` : null,
      dateText: calendarDateText(start, end),
      startDate: start,
      endDate: end,
      location: `${where.city}, ${where.country}`,
      countryCode: where.countryCode,
      continent: where.continent,
      nearDuplicateOf: null,
      review: isReviewed
        ? random.chance(0.5)
          ? {
              action: 'rejected',
              notes: 'Too far away for us this year.',
              atMs: nowMs - random.int(2, 30) * DAY_MS,
            }
          : { action: 'approved', notes: 'Worth a trip.', atMs: nowMs - random.int(2, 30) * DAY_MS }
        : null,
    });
  }

  // Calendar rows whose dates nobody could parse stay unparsed.
  for (const dateText of ['TBA 2026', 'Dates to be announced']) {
    const where = random.pick(FESTIVAL_PLACES);
    const name = `${random.pick(OTHER_FORMATS)(where.city)} (dates TBA)`;
    add({
      name,
      url: `${CALENDAR_URL}/${slug(name)}`,
      dateText,
      startDate: null,
      endDate: null,
      location: `${where.city}, ${where.country}`,
      countryCode: where.countryCode,
      continent: where.continent,
      nearDuplicateOf: null,
      review: null,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------

export interface PlanOptions {
  seed: number;
  /** The instant the plan is made for: events end before it, releases and readings too. */
  now: Date;
  scale?: DemoScale;
}

/** The whole demo data set for a seed, a date and a scale. Pure: nothing is written. */
export function planDemoData(options: PlanOptions): DemoPlan {
  const scale = options.scale ?? DEMO_SCALE;
  const nowMs = options.now.getTime();
  const root = new Random(options.seed);
  // Each part draws from its own stream, so changing one part leaves the others as they were.
  const [songRandom, eventRandom, nightRandom, playRandom, recordingRandom, historyRandom, scrapeRandom] = [
    0, 1, 2, 3, 4, 5, 6,
  ].map((label) => root.fork(label)) as [Random, Random, Random, Random, Random, Random, Random];

  const songs = planSongs(songRandom, scale, nowMs);
  const today = isoDate(nowMs);
  // Past events end at least two days ago; they reach back `years` years.
  const startMs = dateMs(today) - Math.round(scale.years * 365) * DAY_MS;
  const endMs = dateMs(today) - 2 * DAY_MS;
  const festivals = planFestivals(eventRandom, scale, startMs, endMs);
  const pastFestivals = festivals.filter((event) => !event.isUpcoming).length;
  const parties = planParties(eventRandom, Math.max(0, scale.events - pastFestivals), startMs, endMs);
  const withNights = [...festivals, ...parties].sort((a, b) =>
    a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a.name < b.name ? -1 : 1,
  );
  const nights = planNights(nightRandom, withNights);
  allocatePlays(nights, scale.plays);
  const events: PlannedEvent[] = withNights.map(({ nightCount: _nights, ...event }) => event);
  const plays = planPlays(playRandom, songs, events, nights, scale.plays);
  const recordings = planRecordings(recordingRandom, scale, nights, plays);
  const popularityHistory = planPopularityHistory(historyRandom, scale, songs, nowMs);
  const scrapedEvents = planScrapedEvents(scrapeRandom, scale, events, nowMs);
  return {
    seed: options.seed,
    nowMs,
    scale,
    songs,
    events,
    nights,
    plays,
    recordings,
    popularityHistory,
    scrapedEvents,
  };
}

/** Time window of a planned play. */
export const windowOfPlay = (plan: DemoPlan, play: number): TimeWindow =>
  TIME_WINDOWS[plan.plays.window[play]!]!;
