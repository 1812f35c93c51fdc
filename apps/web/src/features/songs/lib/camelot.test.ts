import { describe, expect, it } from 'vitest';
import { camelot, formatKey } from './camelot.js';

describe('camelot', () => {
  it('maps every minor key onto the A ring', () => {
    const minors: [string, string][] = [
      ['A minor', '8A'],
      ['E minor', '9A'],
      ['B minor', '10A'],
      ['F# minor', '11A'],
      ['C# minor', '12A'],
      ['G# minor', '1A'],
      ['D# minor', '2A'],
      ['A# minor', '3A'],
      ['F minor', '4A'],
      ['C minor', '5A'],
      ['G minor', '6A'],
      ['D minor', '7A'],
    ];
    for (const [key, code] of minors) expect(camelot(key), key).toBe(code);
  });

  it('maps every major key onto the B ring', () => {
    const majors: [string, string][] = [
      ['C major', '8B'],
      ['G major', '9B'],
      ['D major', '10B'],
      ['A major', '11B'],
      ['E major', '12B'],
      ['B major', '1B'],
      ['F# major', '2B'],
      ['C# major', '3B'],
      ['G# major', '4B'],
      ['D# major', '5B'],
      ['A# major', '6B'],
      ['F major', '7B'],
    ];
    for (const [key, code] of majors) expect(camelot(key), key).toBe(code);
  });

  it('treats flats as their enharmonic sharps', () => {
    expect(camelot('Db major')).toBe('3B');
    expect(camelot('Eb minor')).toBe('2A');
    expect(camelot('Bb minor')).toBe('3A');
    expect(camelot('Ab major')).toBe('4B');
    expect(camelot('Gb major')).toBe(camelot('F# major'));
  });

  it('reads short forms and symbols', () => {
    expect(camelot('Am')).toBe('8A');
    expect(camelot('F#m')).toBe('11A');
    expect(camelot('C')).toBe('8B');
    expect(camelot('Bb min')).toBe('3A');
    expect(camelot('E♭ maj')).toBe('5B');
    expect(camelot('c# minor')).toBe('12A');
    expect(camelot('  D major ')).toBe('10B');
  });

  it('keeps a key that is already a Camelot code', () => {
    expect(camelot('8A')).toBe('8A');
    expect(camelot('12b')).toBe('12B');
  });

  it('answers null for anything else', () => {
    expect(camelot(null)).toBeNull();
    expect(camelot('')).toBeNull();
    expect(camelot('H minor')).toBeNull();
    expect(camelot('13A')).toBeNull();
    expect(camelot('A dorian')).toBeNull();
  });
});

describe('formatKey', () => {
  it('shows the key with its code', () => {
    expect(formatKey('A minor')).toBe('A minor (8A)');
    expect(formatKey('8A')).toBe('8A');
    expect(formatKey('weird')).toBe('weird');
    expect(formatKey(null)).toBe('—');
  });
});
