import { describe, expect, it } from 'vitest';
import { isWindowsPath, mapLocation } from './path-mapping.js';

describe('path mappings', () => {
  const mappings = [
    { from: 'C:/Music/', to: '/srv/music/' },
    { from: 'C:/Music/WCS', to: '/srv/wcs' },
    { from: '/Users/dj/Music', to: '/srv/music' },
  ];

  it('map Windows paths with either slash and any case, the longest prefix first', () => {
    expect(mapLocation('C:\\Music\\Pop\\a.mp3', mappings)).toEqual({
      path: '/srv/music/Pop/a.mp3',
      caseInsensitive: true,
    });
    expect(mapLocation('c:/MUSIC/wcs/b.mp3', mappings).path).toBe('/srv/wcs/b.mp3');
  });

  it('map other paths exactly, by whole folder names', () => {
    expect(mapLocation('/Users/dj/Music/WCS/a.mp3', mappings)).toEqual({
      path: '/srv/music/WCS/a.mp3',
      caseInsensitive: false,
    });
    expect(mapLocation('/users/dj/music/a.mp3', mappings).path).toBe('/users/dj/music/a.mp3');
    expect(mapLocation('/Users/dj/Musicals/a.mp3', mappings).path).toBe('/Users/dj/Musicals/a.mp3');
    expect(mapLocation('D:\\Other\\a.mp3', mappings).path).toBe('D:/Other/a.mp3');
  });

  it('know Windows paths by a drive letter or a share', () => {
    expect(isWindowsPath('C:\\a.mp3')).toBe(true);
    expect(isWindowsPath('\\\\nas\\music\\a.mp3')).toBe(true);
    expect(isWindowsPath('/Volumes/USB/a.mp3')).toBe(false);
  });
});
