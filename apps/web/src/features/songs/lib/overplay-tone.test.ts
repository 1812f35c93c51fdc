import { describe, expect, it } from 'vitest';
import { overplayTone, playsPerEvent } from './overplay-tone.js';

describe('overplayTone', () => {
  it('is red from 80, yellow from 60, green below', () => {
    expect(overplayTone(100)).toBe('error');
    expect(overplayTone(80)).toBe('error');
    expect(overplayTone(79.9)).toBe('warning');
    expect(overplayTone(60)).toBe('warning');
    expect(overplayTone(59)).toBe('success');
    expect(overplayTone(0)).toBe('success');
  });
});

describe('playsPerEvent', () => {
  it('divides with one decimal', () => {
    expect(playsPerEvent(7, 3)).toBe('2.3');
    expect(playsPerEvent(6, 3)).toBe('2.0');
    expect(playsPerEvent(0, 0)).toBe('0.0');
  });
});
