import { createHash } from 'node:crypto';
import type { InteropSession } from '@wcs/contract';
import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, importedPlays, plays, socials } from '../../db/schema.js';
import type { DjFormat } from '../../providers/dj-software/index.js';
import { addDays, dateMs, isoDate, zonedToUtc } from '../../zoned-time.js';
import { type NewPlay, nightDateOf, recordPlays } from '../plays.js';
import type { MatchPlan, TrackMatch } from './matching.js';
import { storableText } from './matching.js';
import type { SourceSession } from './source.js';

/**
 * A DJ program's history sessions turned into plays (docs/interop.md, "History"): each entry of
 * a chosen session becomes a play (source 'import') of its matched song, in the event the DJ
 * named or the one whose dates hold the session's night (else a new one-day event, when wanted),
 * placed in its social and time window by `recordPlays`, the helper recognition and the demo data
 * use. Entries carry an import key (format, session, position, track) kept in `imported_plays`,
 * so importing the same file again adds nothing; an entry whose song already has a play within
 * `ALREADY_HELD_MINUTES` (a room recording of the same night, or another export of the same
 * history) is not added either. Sessions that keep only a date and the order of their tracks
 * (rekordbox XML) get estimated times: the night's start, then each track's length.
 */

/** A play of the same song this close to an entry's time counts as the same play. */
export const ALREADY_HELD_MINUTES = 5;
/** Where an estimated night starts when neither the DJ nor the event's socials say. */
export const DEFAULT_NIGHT_START = '21:00';
/** The length assumed for a track whose file gives none, when times are estimated. */
export const DEFAULT_TRACK_SECONDS = 240;

/** The program behind each format, for the names of the events an import creates. */
export const SOFTWARE_NAMES: Record<DjFormat, string> = {
  'rekordbox-xml': 'rekordbox',
  'traktor-nml': 'Traktor',
  'virtualdj-database': 'VirtualDJ',
  'virtualdj-m3u': 'VirtualDJ',
  'serato-crate': 'Serato',
  'serato-session': 'Serato',
  'serato-history-csv': 'Serato',
  'serato-database': 'Serato',
  'engine-dj': 'Engine DJ',
  mixxx: 'Mixxx',
  m3u8: 'M3U',
  csv: 'CSV',
};

export interface HistoryOptions {
  /** Indexes of the sessions to import; all when absent. */
  sessions?: readonly number[];
  /** Every session goes to this event. */
  event?: { id: number; name: string; timezone: string };
  createEvents: boolean;
  /** HH:MM; by default the event's usual start, else DEFAULT_NIGHT_START. */
  nightStart?: string;
  /** The zone of events this import creates (the DJ's computer's). */
  timeZone: string;
}

/** A song a play refers to: one of the library, or one the import creates. */
type SongRef = { songId: number } | { newSong: number };

interface PlannedPlay {
  song: SongRef;
  startedAt: Date;
  endedAt: Date | null;
  importKey: string;
  estimated: boolean;
}

/** The event a session goes to: a stored one, or one the import creates (shared by its night). */
type EventRef = { id: number; name: string; timezone: string } | { create: string; name: string };

export interface SessionPlan {
  session: SourceSession;
  selected: boolean;
  event: EventRef | null;
  /** The event is one this import creates. */
  newEvent: boolean;
  plays: PlannedPlay[];
  skipped: number;
  /** Why entries were skipped, with how many each. */
  reasons: Map<string, number>;
}

export interface NewEvent {
  name: string;
  date: string;
  timezone: string;
}

export interface HistoryPlan {
  sessions: SessionPlan[];
  /** Events to create, by their key (the night's date). */
  newEvents: Map<string, NewEvent>;
  skipped: {
    already_imported: number;
    already_held: number;
    no_event: number;
    no_time: number;
    no_song: number;
  };
}

/** The key that names one entry of one file's history, whatever the import options. */
export function importKeyOf(session: SourceSession, position: number, fileKey: string): string {
  const digest = createHash('sha256')
    .update(
      [session.startedAt ?? '', session.date ?? '', session.name, String(position), fileKey].join('\u0000'),
    )
    .digest('hex')
    .slice(0, 40);
  return `${session.format}:${digest}`;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The usual start of an event's nights: the median start of its socials (after-midnight starts count late). */
async function usualNightStart(db: Db, eventId: number): Promise<number | null> {
  const rows = await db
    .select({ start: socials.startTime })
    .from(socials)
    .where(and(eq(socials.eventId, eventId), sql`${socials.startTime} is not null`));
  const starts = rows
    .map((row) => minutesOf(row.start!))
    .map((minutes) => (minutes < 6 * 60 ? minutes + 24 * 60 : minutes))
    .sort((a, b) => a - b);
  return starts.length === 0 ? null : starts[Math.floor(starts.length / 2)]!;
}

/** The stored event whose dates hold a night, in its own zone; the shortest when several do. */
async function eventHolding(
  db: Db,
  nightOf: (timeZone: string) => string,
  around: string,
): Promise<{ id: number; name: string; timezone: string } | null> {
  const candidates = await db
    .select({
      id: events.id,
      name: events.name,
      timezone: events.timezone,
      startDate: events.startDate,
      endDate: events.endDate,
    })
    .from(events)
    .where(and(lte(events.startDate, addDays(around, 1)), gte(events.endDate, addDays(around, -1))));
  const holding = candidates
    .filter((event) => {
      const night = nightOf(event.timezone);
      return event.startDate <= night && night <= event.endDate;
    })
    .sort(
      (a, b) =>
        dateMs(a.endDate) - dateMs(a.startDate) - (dateMs(b.endDate) - dateMs(b.startDate)) || a.id - b.id,
    );
  const found = holding[0];
  return found ? { id: found.id, name: found.name, timezone: found.timezone } : null;
}

function newEventName(session: SourceSession, date: string): string {
  const software = SOFTWARE_NAMES[session.format];
  const name = storableText(session.name).slice(0, 150);
  if (name === '') return `${software} history ${date}`;
  return name.includes(date) ? `${name} (${software})` : `${name} (${software}, ${date})`;
}

function songRefOf(match: TrackMatch | undefined): SongRef | null {
  if (!match) return null;
  if (match.songId !== null) return { songId: match.songId };
  if (match.newSong !== undefined) return { newSong: match.newSong };
  return null;
}

const durationMsOf = (match: TrackMatch | undefined) =>
  match?.track.durationSeconds && match.track.durationSeconds > 0 ? match.track.durationSeconds * 1000 : null;

/**
 * Plans the plays of the chosen sessions; reads the database (events, import keys, plays already
 * held) and writes nothing. Events to create are described, not created.
 */
export async function planHistory(
  db: Db,
  sessions: readonly SourceSession[],
  matches: MatchPlan,
  options: HistoryOptions,
): Promise<HistoryPlan> {
  const chosen = options.sessions ? new Set(options.sessions) : null;
  const plan: HistoryPlan = {
    sessions: [],
    newEvents: new Map(),
    skipped: { already_imported: 0, already_held: 0, no_event: 0, no_time: 0, no_song: 0 },
  };

  // Every key of the chosen sessions, looked up at once.
  const keyed = sessions.map((session) =>
    session.entries.map((entry, position) =>
      importKeyOf(session, position, matches.byKey.get(entry.trackKey)?.track.fileKey ?? entry.trackKey),
    ),
  );
  const wanted = sessions.flatMap((session, i) => (!chosen || chosen.has(session.index) ? keyed[i]! : []));
  const imported = new Set<string>();
  for (let start = 0; start < wanted.length; start += 5000) {
    const rows = await db
      .select({ key: importedPlays.importKey })
      .from(importedPlays)
      .where(inArray(importedPlays.importKey, wanted.slice(start, start + 5000)));
    for (const row of rows) imported.add(row.key);
  }

  for (const [i, session] of sessions.entries()) {
    const selected = !chosen || chosen.has(session.index);
    const sessionPlan: SessionPlan = {
      session,
      selected,
      event: null,
      newEvent: false,
      plays: [],
      skipped: 0,
      reasons: new Map(),
    };
    plan.sessions.push(sessionPlan);
    if (!selected) continue;
    const skip = (reason: keyof HistoryPlan['skipped'], count: number, why: string) => {
      plan.skipped[reason] += count;
      sessionPlan.skipped += count;
      sessionPlan.reasons.set(why, (sessionPlan.reasons.get(why) ?? 0) + count);
    };

    // Entries that can become plays: a song, and not imported before.
    const entries: { position: number; song: SongRef; match: TrackMatch; importKey: string }[] = [];
    let noSong = 0;
    let already = 0;
    for (const [position, entry] of session.entries.entries()) {
      const match = matches.byKey.get(entry.trackKey);
      const song = songRefOf(match);
      const importKey = keyed[i]![position]!;
      if (imported.has(importKey)) already += 1;
      else if (!song || !match) noSong += 1;
      else entries.push({ position, song, match, importKey });
    }
    if (already > 0) skip('already_imported', already, 'imported before');
    if (noSong > 0) skip('no_song', noSong, 'its tracks became no songs (new songs are not wanted)');
    if (entries.length === 0) continue;

    const hasTimes = session.startedAt !== undefined || session.entries.some((entry) => entry.playedAt);
    if (!hasTimes && !session.date) {
      skip('no_time', entries.length, 'the file gives neither times nor a date for this session');
      continue;
    }

    // Exact times: each entry's own, else the one before it plus its length.
    const exact: (number | null)[] = [];
    if (hasTimes) {
      let previous: { at: number; durationMs: number | null } | null = null;
      for (const [index, entry] of session.entries.entries()) {
        const own = entry.playedAt ? Date.parse(entry.playedAt) : Number.NaN;
        let at: number | null = Number.isFinite(own) ? own : null;
        if (at === null) {
          if (previous) at = previous.at + (previous.durationMs ?? DEFAULT_TRACK_SECONDS * 1000);
          else if (index === 0 && session.startedAt) at = Date.parse(session.startedAt);
        }
        exact.push(at);
        if (at !== null) previous = { at, durationMs: durationMsOf(matches.byKey.get(entry.trackKey)) };
      }
    }
    const firstAt = exact.find((at): at is number => at !== null) ?? null;

    // The event: the DJ's, else the one holding the night, else a new one for the night.
    let event: EventRef | null = options.event ?? null;
    const nightIn = (timeZone: string) =>
      firstAt !== null ? nightDateOf(new Date(firstAt), timeZone) : (session.date as string);
    if (!event) {
      const around = session.date ?? isoDate(firstAt!);
      event = await eventHolding(db, nightIn, around);
    }
    if (!event && options.createEvents) {
      const date = nightIn(options.timeZone);
      const known = plan.newEvents.get(date);
      const name = known?.name ?? newEventName(session, date);
      if (!known) plan.newEvents.set(date, { name, date, timezone: options.timeZone });
      event = { create: date, name };
      sessionPlan.newEvent = true;
    }
    if (!event) {
      skip('no_event', entries.length, 'no event holds its night (choose one, or let the import create one)');
      continue;
    }
    sessionPlan.event = event;
    const timeZone = 'create' in event ? options.timeZone : event.timezone;

    // Estimated times: the night's start in the event's zone, then each track's length.
    let times: { at: number; estimated: boolean }[];
    if (hasTimes) {
      times = session.entries.map((entry, index) => ({
        at: exact[index] ?? firstAt!,
        estimated: !entry.playedAt,
      }));
    } else {
      const start =
        options.nightStart !== undefined
          ? minutesOf(options.nightStart)
          : (('id' in event ? await usualNightStart(db, event.id) : null) ?? minutesOf(DEFAULT_NIGHT_START));
      let at = zonedToUtc(session.date!, start, timeZone);
      times = session.entries.map((entry) => {
        const current = at;
        at += durationMsOf(matches.byKey.get(entry.trackKey)) ?? DEFAULT_TRACK_SECONDS * 1000;
        return { at: current, estimated: true };
      });
    }

    const planned: PlannedPlay[] = entries.map(({ position, song, match, importKey }) => {
      const { at, estimated } = times[position]!;
      const next = times[position + 1]?.at;
      const length = durationMsOf(match);
      // It ends with its length or when the next track starts, whichever comes first; without a
      // length, at the next start unless that is a quarter of an hour away (a break).
      let end: number | null = length !== null ? at + length : null;
      if (next !== undefined && next > at) {
        if (end === null) end = next - at <= 15 * 60_000 ? next : null;
        else if (next < end) end = next;
      }
      return {
        song,
        startedAt: new Date(at),
        endedAt: end === null ? null : new Date(end),
        importKey,
        estimated,
      };
    });

    // A play of the same song close by (or, estimated, the same night) is already held.
    const kept =
      'id' in event ? await withoutHeld(db, event.id, event.timezone, planned, !hasTimes) : planned;
    if (kept.length < planned.length)
      skip('already_held', planned.length - kept.length, 'its songs already have plays at those times');
    sessionPlan.plays = kept;
  }

  // An event to create that ends up with no plays is not created.
  const used = new Set(
    plan.sessions.flatMap((s) =>
      s.event && 'create' in s.event && s.plays.length > 0 ? [s.event.create] : [],
    ),
  );
  for (const date of [...plan.newEvents.keys()]) if (!used.has(date)) plan.newEvents.delete(date);
  for (const s of plan.sessions) {
    if (s.event && 'create' in s.event && s.plays.length === 0) {
      s.event = null;
      s.newEvent = false;
    }
  }
  return plan;
}

/** The planned plays no existing play of the event already stands for. */
async function withoutHeld(
  db: Db,
  eventId: number,
  timeZone: string,
  planned: PlannedPlay[],
  sameNight: boolean,
): Promise<PlannedPlay[]> {
  const songIds = [...new Set(planned.flatMap((play) => ('songId' in play.song ? [play.song.songId] : [])))];
  if (songIds.length === 0) return planned;
  const margin = sameNight ? 12 * 3_600_000 : ALREADY_HELD_MINUTES * 60_000;
  const times = planned.map((play) => play.startedAt.getTime());
  const rows = await db
    .select({ songId: plays.songId, startedAt: plays.startedAt })
    .from(plays)
    .where(
      and(
        eq(plays.eventId, eventId),
        inArray(plays.songId, songIds),
        gte(plays.startedAt, new Date(Math.min(...times) - margin)),
        lte(plays.startedAt, new Date(Math.max(...times) + margin)),
      ),
    );
  const bySong = new Map<number, number[]>();
  for (const row of rows)
    bySong.set(row.songId, [...(bySong.get(row.songId) ?? []), row.startedAt.getTime()]);
  return planned.filter((play) => {
    if (!('songId' in play.song)) return true;
    const held = bySong.get(play.song.songId) ?? [];
    if (sameNight) {
      const night = nightDateOf(play.startedAt, timeZone);
      return !held.some((at) => nightDateOf(new Date(at), timeZone) === night);
    }
    return !held.some((at) => Math.abs(at - play.startedAt.getTime()) <= ALREADY_HELD_MINUTES * 60_000);
  });
}

/**
 * Writes a history plan after `applyMatches` has created its songs: the new events, the plays
 * (through `recordPlays`, so socials and windows are placed as everywhere) and their import keys.
 * Returns the events created. Call it inside the import's transaction.
 */
export async function applyHistory(
  tx: Db,
  plan: HistoryPlan,
  matches: MatchPlan,
): Promise<{ eventsCreated: { event_id: number; event_name: string }[]; plays: number }> {
  const eventIds = new Map<string, number>();
  const eventsCreated: { event_id: number; event_name: string }[] = [];
  for (const [date, event] of plan.newEvents) {
    const [row] = await tx
      .insert(events)
      .values({
        name: event.name,
        startDate: date,
        endDate: date,
        isFestival: false,
        timezone: event.timezone,
      })
      .returning({ id: events.id });
    eventIds.set(date, row!.id);
    eventsCreated.push({ event_id: row!.id, event_name: event.name });
  }
  const newSongIds = new Map<number, number>();
  for (const match of matches.matches) {
    if (match.newSong !== undefined && match.songId !== null) newSongIds.set(match.newSong, match.songId);
  }

  const rows: (NewPlay & { importKey: string; format: DjFormat; sessionName: string; estimated: boolean })[] =
    [];
  for (const sessionPlan of plan.sessions) {
    const event = sessionPlan.event;
    if (!event || sessionPlan.plays.length === 0) continue;
    const eventId = 'id' in event ? event.id : eventIds.get(event.create)!;
    if ('create' in event)
      sessionPlan.event = {
        id: eventId,
        name: event.name,
        timezone: plan.newEvents.get(event.create)!.timezone,
      };
    for (const play of sessionPlan.plays) {
      const songId = 'songId' in play.song ? play.song.songId : newSongIds.get(play.song.newSong);
      if (songId === undefined) continue;
      rows.push({
        songId,
        eventId,
        startedAt: play.startedAt,
        endedAt: play.endedAt,
        source: 'import',
        importKey: play.importKey,
        format: sessionPlan.session.format,
        sessionName: storableText(sessionPlan.session.name),
        estimated: play.estimated,
      });
    }
  }
  const ids = await recordPlays(
    tx,
    rows.map(
      ({ importKey: _key, format: _format, sessionName: _name, estimated: _estimated, ...play }) => play,
    ),
  );
  for (let start = 0; start < ids.length; start += 5000) {
    await tx.insert(importedPlays).values(
      ids.slice(start, start + 5000).map((playId, offset) => {
        const row = rows[start + offset]!;
        return {
          playId,
          importKey: row.importKey,
          format: row.format,
          sessionName: row.sessionName,
          timeEstimated: row.estimated,
        };
      }),
    );
  }
  return { eventsCreated, plays: ids.length };
}

/** The contract's view of each session of a plan. */
export function describeSessions(plan: HistoryPlan): InteropSession[] {
  return plan.sessions.map(({ session, selected, event, newEvent, plays: planned, skipped, reasons }) => ({
    index: session.index,
    name: session.name,
    date: session.date ?? null,
    started_at: session.startedAt ?? null,
    entries: session.entries.length,
    estimated_times: session.startedAt === undefined && !session.entries.some((entry) => entry.playedAt),
    selected,
    event_id: event && 'id' in event ? event.id : null,
    event_name: event?.name ?? null,
    new_event: newEvent,
    plays: planned.length,
    skipped,
    skipped_reason: !selected
      ? 'not chosen'
      : planned.length > 0
        ? null
        : ([...reasons.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'nothing to add'),
  }));
}
