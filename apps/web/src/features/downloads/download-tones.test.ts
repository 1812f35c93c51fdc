import { describe, expect, it } from 'vitest';
import { formatPriority, priorityTone, statusTone } from './download-tones';

describe('priorityTone', () => {
  it('is error from 200, warning from 100, else normal', () => {
    expect(priorityTone(250)).toBe('error');
    expect(priorityTone(200)).toBe('error');
    expect(priorityTone(199.9)).toBe('warning');
    expect(priorityTone(100)).toBe('warning');
    expect(priorityTone(99.9)).toBe('neutral');
    expect(priorityTone(0)).toBe('neutral');
  });
});

describe('statusTone and formatPriority', () => {
  it('colours each status and rounds the score', () => {
    expect(statusTone('failed')).toBe('error');
    expect(statusTone('completed')).toBe('success');
    expect(statusTone('downloading')).toBe('info');
    expect(formatPriority(212.44)).toBe('212.4');
    expect(formatPriority(50)).toBe('50');
  });
});
