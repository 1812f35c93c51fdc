import { describe, expect, it } from 'vitest';
import { wallTimeAt } from '../../zoned-time.js';
import { keyNameOfTraktorIndex, traktorKeyIndex } from './keys.js';
import { fileUrlToPath, pathToFileUrl, percentDecode, resolvePath } from './paths.js';
import { decodeText } from './text-input.js';
import { isoOfWallTime, parseDateTime } from './time.js';

describe('wall times and zones', () => {
  it('reads a wall time in a zone, daylight saving included', () => {
    const wall = { year: 2024, month: 5, day: 3, hour: 21, minute: 2, second: 10 };
    expect(isoOfWallTime(wall, 'America/Chicago')).toBe('2024-05-04T02:02:10Z');
    expect(isoOfWallTime({ ...wall, month: 1 }, 'America/Chicago')).toBe('2024-01-04T03:02:10Z');
    expect(isoOfWallTime(wall, 'UTC')).toBe('2024-05-03T21:02:10Z');
  });

  it('reads a time in the skipped spring hour with the offset before the change, and a repeated autumn hour as the first', () => {
    expect(
      isoOfWallTime({ year: 2024, month: 3, day: 10, hour: 2, minute: 30, second: 0 }, 'America/Chicago'),
    ).toBe('2024-03-10T08:30:00Z');
    expect(
      isoOfWallTime({ year: 2024, month: 11, day: 3, hour: 1, minute: 30, second: 0 }, 'America/Chicago'),
    ).toBe('2024-11-03T06:30:00Z');
  });

  it('gives the wall time of an instant', () => {
    expect(wallTimeAt(Date.parse('2024-05-04T02:02:10Z'), 'America/Chicago')).toEqual({
      year: 2024,
      month: 5,
      day: 3,
      hour: 21,
      minute: 2,
      second: 10,
    });
  });

  it('parses play times written by people and spreadsheets', () => {
    expect(parseDateTime('2024-05-03 21:02', 'Europe/Paris')).toBe('2024-05-03T19:02:00Z');
    expect(parseDateTime('2024/5/3T21:02:10+02:00', 'UTC')).toBe('2024-05-03T19:02:10Z');
    expect(parseDateTime('2024-05-03T21:02:10.250Z', 'America/Chicago')).toBe('2024-05-03T21:02:10Z');
    expect(parseDateTime('1714788130', 'UTC')).toBe('2024-05-04T02:02:10Z');
    expect(parseDateTime('1714788130000', 'UTC')).toBe('2024-05-04T02:02:10Z');
    expect(parseDateTime('2024-02-30 10:00', 'UTC')).toBeNull();
    expect(parseDateTime('yesterday', 'UTC')).toBeNull();
  });
});

describe('musical keys', () => {
  it("gives Traktor's key number for Camelot, Open Key and named keys", () => {
    expect(
      ['8A', '8B', '1m', '1d', '6d', '5m', 'Am', 'A minor', 'F#m', 'Gb', 'Dbm', 'B♭m', '12A'].map(
        traktorKeyIndex,
      ),
    ).toEqual([21, 0, 21, 0, 11, 13, 21, 21, 18, 6, 13, 22, 13]);
    expect(traktorKeyIndex('H')).toBeNull();
    expect(traktorKeyIndex('13A')).toBeNull();
  });

  it("names Traktor's key numbers", () => {
    expect([0, 7, 18, 21, 23].map(keyNameOfTraktorIndex)).toEqual(['C', 'G', 'F#m', 'Am', 'Bm']);
    expect(keyNameOfTraktorIndex(24)).toBeNull();
  });
});

describe('file locations', () => {
  it('decodes file:// URLs of Mac and Windows paths', () => {
    expect(fileUrlToPath('file://localhost/Users/dj/My%20Music/Se%C3%B1orita.m4a')).toBe(
      '/Users/dj/My Music/Señorita.m4a',
    );
    expect(fileUrlToPath('file:///C:/Music/a%23b.mp3')).toBe('C:/Music/a#b.mp3');
    expect(fileUrlToPath('/already/a path.mp3')).toBe('/already/a path.mp3');
  });

  it('resolves relative paths against a folder, in its separator, never above its root', () => {
    expect(resolvePath('/Users/dj/Music/Engine Library', '../WCS/./a.mp3')).toBe('/Users/dj/Music/WCS/a.mp3');
    expect(resolvePath('E:\\Engine Library', '../Music/a.mp3')).toBe('E:\\Music\\a.mp3');
    expect(resolvePath('C:/DJ', '../../../a.mp3')).toBe('C:/a.mp3');
    expect(resolvePath('\\\\nas\\music\\Engine Library', '../a.mp3')).toBe('\\\\nas\\music\\a.mp3');
    expect(resolvePath('/Users/dj', '/Volumes/USB/a.mp3')).toBe('/Volumes/USB/a.mp3');
  });

  it('keeps a bare % and invalid escapes as written', () => {
    expect(percentDecode('100% pure %zz %C3')).toBe('100% pure %zz %C3');
  });

  it('encodes paths as rekordbox writes them and back', () => {
    for (const original of ['/Users/dj/100% #1 (edit) Señorita.m4a', 'D:/Music/a b.wav']) {
      expect(fileUrlToPath(pathToFileUrl(original))).toBe(original);
    }
    expect(pathToFileUrl('C:\\Music\\a b.wav')).toBe('file://localhost/C:/Music/a%20b.wav');
  });
});

describe('text decoding', () => {
  it('follows byte-order marks, then UTF-8, then Windows-1252', () => {
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]))).toBe('aé');
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x61, 0x00, 0xe9, 0x00]))).toBe('aé');
    expect(decodeText(Buffer.from([0xfe, 0xff, 0x00, 0x61, 0x00, 0xe9]))).toBe('aé');
    expect(decodeText(Buffer.from([0x61, 0xe9, 0x20, 0x92, 0x80]))).toBe('aé ’€');
    // E9 92 80 alone is valid UTF-8 (U+9480), so it stays UTF-8.
    expect(decodeText(Buffer.from([0xe9, 0x92, 0x80]))).toBe('\u9480');
    expect(decodeText('\uFEFFtext')).toBe('text');
  });
});
