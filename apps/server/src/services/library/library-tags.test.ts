import { describe, expect, it } from 'vitest';
import { releaseDateFromTags, repairMojibake } from './library-tags.js';

describe('releaseDateFromTags', () => {
  it('keeps a full date, with or without a time', () => {
    expect(releaseDateFromTags('2021-05-14', 2021)).toBe('2021-05-14');
    expect(releaseDateFromTags('2021-05-14T10:00:00', undefined)).toBe('2021-05-14');
  });

  it('makes a year and month the first of the month, and a year alone the first of January', () => {
    expect(releaseDateFromTags('2020-11', undefined)).toBe('2020-11-01');
    expect(releaseDateFromTags('2019', 2019)).toBe('2019-01-01');
    expect(releaseDateFromTags(undefined, 1998)).toBe('1998-01-01');
  });

  it('falls back to the year tag when the date tag is not a date', () => {
    expect(releaseDateFromTags('2019-02-30', 2019)).toBe('2019-01-01');
    expect(releaseDateFromTags('spring', 2005)).toBe('2005-01-01');
  });

  it('gives no date for nothing, or for years outside 1900-2100', () => {
    expect(releaseDateFromTags(undefined, undefined)).toBeNull();
    expect(releaseDateFromTags('0000', 0)).toBeNull();
    expect(releaseDateFromTags('9999-01-01', undefined)).toBeNull();
  });
});

describe('repairMojibake', () => {
  it('decodes UTF-8 that was read as Latin-1', () => {
    expect(repairMojibake('TÃ¯tle')).toBe('Tïtle');
    expect(repairMojibake('BeyoncÃ©')).toBe('Beyoncé');
  });

  it('leaves real Latin-1, plain ASCII and proper Unicode text alone', () => {
    expect(repairMojibake('Café')).toBe('Café');
    expect(repairMojibake('Plain Title')).toBe('Plain Title');
    expect(repairMojibake('Motörhead – Ace')).toBe('Motörhead – Ace');
  });
});
