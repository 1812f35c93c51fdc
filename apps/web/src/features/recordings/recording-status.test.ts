import { describe, expect, it } from 'vitest';
import {
  canRetryProcessing,
  deleteConfirmation,
  formatMegabytes,
  formatMinutes,
  recordingStatus,
  timeSince,
} from './recording-status';

describe('recordingStatus', () => {
  it('is Failed with an error, else Completed when processed, else Processing...', () => {
    expect(recordingStatus({ error_message: 'no audio', processed: true }).label).toBe('Failed');
    expect(recordingStatus({ error_message: null, processed: true }).label).toBe('Completed');
    expect(recordingStatus({ error_message: null, processed: false }).label).toBe('Processing...');
  });
  it('offers Retry for errored or unprocessed recordings only', () => {
    expect(canRetryProcessing({ error_message: 'x', processed: true })).toBe(true);
    expect(canRetryProcessing({ error_message: null, processed: false })).toBe(true);
    expect(canRetryProcessing({ error_message: null, processed: true })).toBe(false);
  });
});

describe('timeSince', () => {
  const now = Date.parse('2026-03-05T20:00:00Z');
  it('says how long ago, in words', () => {
    expect(timeSince('2026-03-05T19:59:50Z', now)).toBe('just now');
    expect(timeSince('2026-03-05T19:55:00Z', now)).toBe('5 minutes ago');
    expect(timeSince('2026-03-05T17:00:00Z', now)).toBe('3 hours ago');
    expect(timeSince('2026-03-04T20:00:00Z', now)).toBe('yesterday');
    expect(timeSince('not a date', now)).toBe('');
  });
});

describe('formatting', () => {
  it('shows minutes and megabytes with one decimal', () => {
    expect(formatMinutes(12.345)).toBe('12.3 min');
    expect(formatMinutes(0)).toBe('0.0 min');
    expect(formatMegabytes(3.25)).toBe('3.3 MB');
  });
  it('the delete confirmation names everything that goes and that it cannot be undone', () => {
    const text = deleteConfirmation('night.webm');
    expect(text).toContain('night.webm');
    expect(text).toContain('audio file');
    expect(text).toContain('all recognised songs');
    expect(text).toContain('all associated transitions');
    expect(text).toContain('permanently');
    expect(text).toContain('cannot be undone');
  });
});
