import { describe, expect, it } from 'vitest';
import { m3u8Seconds, writeM3u8 } from './m3u8.js';

describe('m3u8Seconds', () => {
  it('rounds milliseconds to whole seconds, halves up', () => {
    expect(m3u8Seconds(215_499)).toBe(215);
    expect(m3u8Seconds(215_500)).toBe(216);
    expect(m3u8Seconds(0)).toBe(0);
  });

  it('answers -1 when the length is unknown', () => {
    expect(m3u8Seconds(null)).toBe(-1);
    expect(m3u8Seconds(Number.NaN)).toBe(-1);
    expect(m3u8Seconds(-5)).toBe(-1);
  });
});

describe('writeM3u8', () => {
  it('writes the header, then #EXTINF and the path for each song, in order', () => {
    const text = writeM3u8([
      { artist: 'Beyoncé', title: 'Halo', durationMs: 261_640, path: '/music/Beyoncé/Halo.mp3' },
      { artist: 'Norah Jones', title: "Don't Know Why, Live", durationMs: null, path: '/music/nj.flac' },
    ]);
    expect(text).toBe(
      '#EXTM3U\n' +
        '#EXTINF:262,Beyoncé - Halo\n' +
        '/music/Beyoncé/Halo.mp3\n' +
        "#EXTINF:-1,Norah Jones - Don't Know Why, Live\n" +
        '/music/nj.flac\n',
    );
  });

  it('is only the header for an empty playlist', () => {
    expect(writeM3u8([])).toBe('#EXTM3U\n');
  });

  it('keeps every entry on its own two lines when a tag holds line breaks', () => {
    const text = writeM3u8([{ artist: 'A\r\nB', title: 'One\nTwo', durationMs: 1000, path: '/m/x.mp3' }]);
    expect(text).toBe('#EXTM3U\n#EXTINF:1,A B - One Two\n/m/x.mp3\n');
  });
});
