import { GENRES } from '@wcs/contract';

/** Series colours that stay readable on the light and the dark theme. */
export const SERIES_COLOURS = ['#6366f1', '#f97316', '#10b981', '#ec4899', '#0ea5e9', '#eab308', '#8b5cf6'];

export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length] ?? '#6366f1';
}

/** One fixed colour per genre, so a genre looks the same in every chart of the app. */
const GENRE_COLOURS: Readonly<Record<string, string>> = Object.fromEntries(
  GENRES.map((genre, index) => [genre, seriesColour(index)]),
);

export function genreColour(genre: string, fallbackIndex = 0): string {
  return GENRE_COLOURS[genre] ?? seriesColour(GENRES.length + fallbackIndex);
}

/** 'YYYY-MM' (as the server sends months) as the German 'MM.YYYY'; anything else unchanged. */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})/.exec(month);
  return match ? `${match[2]}.${match[1]}` : month;
}
