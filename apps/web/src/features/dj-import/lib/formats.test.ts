import { DJ_IMPORT_FORMATS } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { formatLabel, IMPORT_FORMAT_LABELS } from './formats';

describe('the import formats', () => {
  it('name every format the contract reads, and no other', () => {
    expect(Object.keys(IMPORT_FORMAT_LABELS).sort()).toEqual([...DJ_IMPORT_FORMATS].sort());
  });

  it('name a format the server reports, the formats of a folder once each, unknown ones as sent', () => {
    expect(formatLabel('rekordbox-xml')).toBe('rekordbox XML');
    expect(formatLabel('engine-dj+engine-dj')).toBe('Engine DJ database');
    expect(formatLabel('serato-database+serato-crate')).toBe('Serato database V2 + Serato crate');
    expect(formatLabel('something-new')).toBe('something-new');
    expect(formatLabel('toString')).toBe('toString');
  });
});
