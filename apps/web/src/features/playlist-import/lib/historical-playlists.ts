import type { TimeWindow } from '@wcs/contract';
import { DEFAULT_SET_START } from './estimate-timestamps';
import { parsePlaylistName, timeWindowForStart, WEEKDAYS, type Weekday } from './parse-playlist-name';

/**
 * The built-in list of the Playlist Import screen: 48 sets DJs played at West Coast Swing festivals
 * from 2017 to 2025, named the way they were shared on the music-streaming service. Only the name,
 * owner and song count are stored; year, night, start time and time window are read from the name.
 */

interface RawPlaylist {
  name: string;
  owner: string;
  songCount: number;
}

/** One entry of the import list (the specification's "Import playlist" entity). */
export interface ImportPlaylist {
  name: string;
  url: string;
  owner: string;
  songCount: number;
  year: number;
  dayOfWeek: Weekday | null;
  /** HH:MM from the name, null when it has none (timestamps then start at 22:00). */
  setStartTime: string | null;
  /** From the start time, or from the 22:00 default when the name has none. */
  timeWindow: TimeWindow | null;
  hasTimeInfo: boolean;
}

const RAW_PLAYLISTS: readonly RawPlaylist[] = [
  // 2025
  { name: "Swingtacular '25 Friday 10:30-1 am", owner: 'DJ Marisol Vega', songCount: 41 },
  { name: "Swingtacular '25 Saturday 1:30-3 am", owner: 'Westie Wax', songCount: 24 },
  { name: 'Liberty Swing 2025 Friday 9-11 pm', owner: 'Jonas Brandt', songCount: 32 },
  { name: 'Liberty Swing 2025 Saturday closing', owner: 'DJ Tess Oduya', songCount: 38 },
  { name: "Desert City Swing '25 Sunday midnight-3 am", owner: 'Kel Marquardt', songCount: 47 },
  { name: 'MadJam 2025 Thursday', owner: 'Slow Groove Collective', songCount: 56 },
  // 2024
  { name: 'US Open 2024 Wednesday 10-1 am', owner: 'DJ Marisol Vega', songCount: 46 },
  { name: 'US Open 2024 Friday late night', owner: 'Rhea Lindqvist', songCount: 35 },
  { name: 'US Open 2024 Saturday 11:30 pm-2 am', owner: 'Westie Wax', songCount: 40 },
  { name: 'Boogie by the Bay 2024 Friday 8-10 pm', owner: 'Andre Kessler', songCount: 31 },
  { name: 'Boogie by the Bay 2024 Saturday', owner: 'Nia Castellanos', songCount: 52 },
  { name: "Swing Diego '24 Saturday 2-4 am", owner: 'Jonas Brandt', songCount: 33 },
  { name: 'Budafest 2024 Sunday 10:30 pm-1 am', owner: 'Zsófi Halász', songCount: 39 },
  // 2023
  { name: "Swingtacular '23 Friday 10:30-1 am", owner: 'DJ Tess Oduya', songCount: 42 },
  { name: "Swingtacular '23 Saturday late night", owner: 'Kel Marquardt', songCount: 36 },
  { name: "Swingtacular '23 Sunday closing", owner: 'Westie Wax', songCount: 44 },
  { name: 'Phoenix 4th of July 2023 Saturday 9:30-11:30 pm', owner: 'Andre Kessler', songCount: 30 },
  { name: 'Seattle Easter Swing 2023 Friday 11-2 am', owner: 'Rhea Lindqvist', songCount: 45 },
  { name: "Trilogy Swing '23 Thursday", owner: 'Slow Groove Collective', songCount: 49 },
  // 2022
  { name: 'Summer Hummer 2022 Friday 10-12:30 am', owner: 'Nia Castellanos', songCount: 38 },
  { name: 'Summer Hummer 2022 Saturday midnight-2:30 am', owner: 'DJ Marisol Vega', songCount: 37 },
  { name: "Capital Swing '22 Saturday 3-5 am", owner: 'Kel Marquardt', songCount: 29 },
  { name: "Capital Swing '22 Sunday 9-11 pm", owner: 'Jonas Brandt', songCount: 31 },
  { name: 'Monterey Swing Fest 2022 Saturday', owner: 'Andre Kessler', songCount: 54 },
  { name: 'Tampa Bay Classic 2022 Friday late night', owner: 'DJ Tess Oduya', songCount: 34 },
  // 2021
  { name: "Desert City Swing '21 Friday 8:30-10:30 pm", owner: 'Rhea Lindqvist', songCount: 30 },
  { name: "Desert City Swing '21 Saturday 4-6 am", owner: 'Westie Wax', songCount: 28 },
  { name: 'Liberty Swing 2021 Saturday 12:30-2 am', owner: 'Zsófi Halász', songCount: 27 },
  { name: 'Austin Rocks 2021 Sunday closing', owner: 'Nia Castellanos', songCount: 43 },
  { name: "Swing Diego '21 Friday", owner: 'Slow Groove Collective', songCount: 48 },
  // 2020
  { name: 'Swing Diego 2020 Friday 10-1 am', owner: 'DJ Marisol Vega', songCount: 44 },
  { name: 'Swing Diego 2020 Saturday late night', owner: 'Jonas Brandt', songCount: 36 },
  { name: "Desert City Swing '20 Saturday 11 pm-2 am", owner: 'Kel Marquardt', songCount: 46 },
  // 2019
  { name: 'Boogie by the Bay 2019 Saturday late night', owner: 'Andre Kessler', songCount: 35 },
  { name: 'Boogie by the Bay 2019 Friday 9-11:30 pm', owner: 'DJ Tess Oduya', songCount: 39 },
  { name: 'US Open 2019 Thursday 10:30 pm-1 am', owner: 'Rhea Lindqvist', songCount: 41 },
  { name: 'US Open 2019 Saturday closing', owner: 'Westie Wax', songCount: 40 },
  { name: "Liberty Swing '19 Sunday 1-3 am", owner: 'Zsófi Halász', songCount: 32 },
  { name: 'MadJam 2019 Saturday', owner: 'Nia Castellanos', songCount: 57 },
  // 2018
  { name: 'Swingtacular 2018 Friday 10-1 am', owner: 'Slow Groove Collective', songCount: 45 },
  { name: 'Swingtacular 2018 Saturday 2:30-4:30 am', owner: 'DJ Marisol Vega', songCount: 33 },
  { name: "Seattle Easter Swing '18 Saturday midnight", owner: 'Jonas Brandt', songCount: 38 },
  { name: "Phoenix 4th of July '18 Friday 8-10 pm", owner: 'Kel Marquardt', songCount: 30 },
  // 2017
  { name: 'US Open 2017 Friday late night', owner: 'Andre Kessler', songCount: 37 },
  { name: 'US Open 2017 Saturday 11-1 am', owner: 'DJ Tess Oduya', songCount: 31 },
  { name: "Boogie by the Bay '17 Sunday 9:30 pm-12 am", owner: 'Rhea Lindqvist', songCount: 38 },
  { name: 'Trilogy Swing 2017 Saturday', owner: 'Westie Wax', songCount: 50 },
  { name: "Budafest '17 Friday 10-12:30 am", owner: 'Zsófi Halász', songCount: 36 },
];

/** A search on the streaming service for the playlist's name (the original links are not kept). */
function searchUrl(name: string): string {
  return `https://open.spotify.com/search/${encodeURIComponent(name)}`;
}

/** Parses each name; unparsable names are skipped with a console warning. */
export function buildImportPlaylists(raw: readonly RawPlaylist[]): ImportPlaylist[] {
  const playlists: ImportPlaylist[] = [];
  for (const entry of raw) {
    const parsed = parsePlaylistName(entry.name);
    if (!parsed) {
      console.warn(`Playlist import: skipped "${entry.name}", its name has no festival year`);
      continue;
    }
    playlists.push({
      name: entry.name,
      url: searchUrl(entry.name),
      owner: entry.owner,
      songCount: entry.songCount,
      year: parsed.year,
      dayOfWeek: parsed.dayOfWeek,
      setStartTime: parsed.setStartTime,
      timeWindow: timeWindowForStart(parsed.setStartTime ?? DEFAULT_SET_START),
      hasTimeInfo: parsed.setStartTime !== null,
    });
  }
  return playlists;
}

export const BUILT_IN_PLAYLISTS: readonly ImportPlaylist[] = buildImportPlaylists(RAW_PLAYLISTS);

/** Festival nights in the order they happen: from Wednesday's opening night to Tuesday. */
const NIGHT_ORDER: readonly Weekday[] = [...WEEKDAYS.slice(2), ...WEEKDAYS.slice(0, 2)];

/** Minutes into the night, so that 22:00 comes before 01:00 (the night starts at 06:00). */
function minutesIntoNight(time: string | null): number {
  if (!time) return Number.POSITIVE_INFINITY;
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return (((hours - 6 + 24) % 24) * 60 + minutes) % (24 * 60);
}

export interface NightGroup {
  night: string;
  playlists: ImportPlaylist[];
}
export interface YearGroup {
  year: number;
  nights: NightGroup[];
}

/** By festival year (newest first), then night; within a night by start time, then name. */
export function groupByYearAndNight(playlists: readonly ImportPlaylist[]): YearGroup[] {
  const years = [...new Set(playlists.map((p) => p.year))].sort((a, b) => b - a);
  return years.map((year) => {
    const ofYear = playlists.filter((p) => p.year === year);
    const nights = [...new Set(ofYear.map((p) => p.dayOfWeek))].sort((a, b) => nightIndex(a) - nightIndex(b));
    return {
      year,
      nights: nights.map((night) => ({
        night: night ?? 'Other nights',
        playlists: ofYear
          .filter((p) => p.dayOfWeek === night)
          .sort(
            (a, b) =>
              minutesIntoNight(a.setStartTime) - minutesIntoNight(b.setStartTime) ||
              a.name.localeCompare(b.name),
          ),
      })),
    };
  });
}

function nightIndex(night: Weekday | null): number {
  return night === null ? NIGHT_ORDER.length : NIGHT_ORDER.indexOf(night);
}
