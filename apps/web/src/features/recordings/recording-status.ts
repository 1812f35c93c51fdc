import type { Recording } from '@wcs/contract';
import type { BadgeTone } from '../../components/badge';

export type RecordingStatusLabel = 'Failed' | 'Completed' | 'Processing...';

/** docs/product.md "Recordings": Failed with an error message, else Completed when processed, else 'Processing...'. */
export function recordingStatus(recording: Pick<Recording, 'error_message' | 'processed'>): {
  label: RecordingStatusLabel;
  tone: BadgeTone;
} {
  if (recording.error_message) return { label: 'Failed', tone: 'error' };
  if (recording.processed) return { label: 'Completed', tone: 'success' };
  return { label: 'Processing...', tone: 'warning' };
}

/** Retry is offered for a recording that failed or is not processed yet. */
export function canRetryProcessing(recording: Pick<Recording, 'error_message' | 'processed'>): boolean {
  return Boolean(recording.error_message) || !recording.processed;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** '5 minutes ago', '3 hours ago', 'yesterday': the time since an instant. */
export function timeSince(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  if (abs < 365 * 86_400) return relative.format(Math.round(seconds / (30 * 86_400)), 'month');
  return relative.format(Math.round(seconds / (365 * 86_400)), 'year');
}

/** Minutes with one decimal: `12.5 min`. */
export function formatMinutes(minutes: number): string {
  return `${(Math.round(minutes * 10) / 10).toFixed(1)} min`;
}

/** Megabytes as the server reports them, one decimal: `3.2 MB`. */
export function formatMegabytes(megabytes: number): string {
  return `${(Math.round(megabytes * 10) / 10).toFixed(1)} MB`;
}

/** 24-hour local time of day: `21:04`. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit' });
}

/** The confirmation (docs/product.md "Recordings") before a recording is deleted. */
export function deleteConfirmation(filename: string): string {
  return (
    `Delete the recording "${filename}"?\n\n` +
    'This permanently deletes the audio file, all recognised songs and all associated transitions. ' +
    'This cannot be undone.'
  );
}
