/** Shown in place of a value that is missing or cannot be read. */
export const MISSING = '—';

type DateInput = Date | string | number | null | undefined;

/** Made on first use: building an Intl formatter costs a few milliseconds a screen may not need. */
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

const twoDigits = (n: number) => String(n).padStart(2, '0');

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  // A calendar date (YYYY-MM-DD) is a local date: `new Date('2026-03-05')` would be UTC midnight,
  // which is the previous evening west of UTC.
  const calendar = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (calendar) return new Date(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3]));
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** German date in the browser's time zone (a YYYY-MM-DD date as it is): `05.03.2026`. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  if (!date) return MISSING;
  // What de-DE writes for a four-digit year, without Intl: lists of hundreds of dates render
  // several times faster (Intl's format costs about 0.1 ms a call on a slow phone).
  const year = date.getFullYear();
  if (year >= 1000 && year <= 9999) {
    return `${twoDigits(date.getDate())}.${twoDigits(date.getMonth() + 1)}.${year}`;
  }
  dateFormat ??= new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' });
  return dateFormat.format(date);
}

/** German date and 24-hour time in the browser's time zone: `05.03.2026, 09:07`. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return MISSING;
  dateTimeFormat ??= new Intl.DateTimeFormat('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return dateTimeFormat.format(date);
}

/** A song length from milliseconds as m:ss (`225000` → `3:45`); minutes are not capped at 59. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return MISSING;
  const totalSeconds = Math.floor(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Elapsed time from seconds as hh:mm:ss (`3723` → `01:02:03`); hours grow past 99 if need be. */
export function formatHms(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  return [hours, minutes, rest].map((part) => String(part).padStart(2, '0')).join(':');
}

/** Bytes as megabytes (1 MB = 1024 × 1024 bytes) with one decimal: `1572864` → `1.5 MB`. */
export function formatMb(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return MISSING;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
