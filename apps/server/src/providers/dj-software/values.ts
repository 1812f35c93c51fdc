/**
 * Field values as files write them, turned into `DjTrack` fields. Every parser answers undefined
 * for an empty or unreadable value rather than throwing: one odd cell must not lose a whole
 * library, and "unknown" is what an empty BPM or a zero rating mean in these files.
 */
import type { DjTrack } from './types.js';

/** Trimmed text; undefined when empty or absent. */
export function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A finite number ('124.00', '124,5' from a European spreadsheet); undefined otherwise. */
export function number(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const normalised = /^-?\d+,\d+$/.test(raw) ? raw.replace(',', '.') : raw;
  if (!/^-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(normalised)) return undefined;
  const parsed = Number(normalised);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** A number above zero; 0 and negatives mean "not analysed" in these files. */
export function positive(value: unknown): number | undefined {
  const parsed = number(value);
  return parsed !== undefined && parsed > 0 ? parsed : undefined;
}

/** A whole count (play counts); undefined for negatives and fractions. */
export function count(value: unknown): number | undefined {
  const parsed = number(value);
  return parsed !== undefined && Number.isInteger(parsed) && parsed >= 0 ? parsed : undefined;
}

/** Seconds from '397', '397.5', '6:37', '06:37.25' or '1:02:03'. */
export function durationSeconds(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:[.,]\d+)?)$/.exec(raw);
  if (clock) {
    const seconds = Number(clock[3]!.replace(',', '.'));
    return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + seconds;
  }
  return positive(raw);
}

/** YYYY-MM-DD from 'YYYY-MM-DD', 'YYYY/M/D' (Traktor) or the date part of an ISO timestamp. */
export function isoDate(value: unknown): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:$|[T ])/.exec(raw);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Stars 1-5 from a 0-255 scale (rekordbox `Rating`, Traktor `RANKING`: 51 per star). */
export function starsFrom255(value: unknown): number | undefined {
  const parsed = number(value);
  if (parsed === undefined || parsed <= 0) return undefined;
  return Math.min(5, Math.max(1, Math.round(parsed / 51)));
}

/** Stars 1-5 from a 0-5 scale; 0 is unrated. */
export function stars(value: unknown): number | undefined {
  const parsed = number(value);
  if (parsed === undefined || parsed <= 0) return undefined;
  return Math.min(5, Math.max(1, Math.round(parsed)));
}

/**
 * A track with its empty fields left out, so that two reads of the same data compare equal and
 * a consumer can test `'bpm' in track`.
 */
export function compactTrack(track: DjTrack): DjTrack {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(track)) {
    if (value !== undefined) out[name] = value;
  }
  return out as unknown as DjTrack;
}

/** Numbers written back with at most `digits` decimals, trailing zeros dropped ('124', '123.45'). */
export function formatNumber(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}
