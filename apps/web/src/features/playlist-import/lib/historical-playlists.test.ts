import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_PLAYLISTS, buildImportPlaylists, groupByYearAndNight } from './historical-playlists.js';

afterEach(() => vi.restoreAllMocks());

describe('BUILT_IN_PLAYLISTS', () => {
  it('holds 48 parsed playlists from 2017 to 2025', () => {
    expect(BUILT_IN_PLAYLISTS).toHaveLength(48);
    const years = new Set(BUILT_IN_PLAYLISTS.map((p) => p.year));
    expect([...years].sort()).toEqual([2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025]);
    expect(new Set(BUILT_IN_PLAYLISTS.map((p) => p.name)).size).toBe(48);
    for (const playlist of BUILT_IN_PLAYLISTS) {
      expect(playlist.dayOfWeek, playlist.name).not.toBeNull();
      expect(playlist.timeWindow, playlist.name).not.toBeNull();
      expect(playlist.hasTimeInfo).toBe(playlist.setStartTime !== null);
      expect(playlist.songCount).toBeGreaterThan(0);
    }
  });
  it('reads the specification examples', () => {
    const friday = BUILT_IN_PLAYLISTS.find((p) => p.name === "Swingtacular '23 Friday 10:30-1 am");
    expect(friday).toMatchObject({
      year: 2023,
      dayOfWeek: 'Friday',
      setStartTime: '22:30',
      timeWindow: '22-00',
    });
    const late = BUILT_IN_PLAYLISTS.find((p) => p.name === 'Boogie by the Bay 2019 Saturday late night');
    expect(late).toMatchObject({ year: 2019, setStartTime: '02:00', timeWindow: '02-04', hasTimeInfo: true });
  });
  it('gives names without a time the 22:00 default window and no time info', () => {
    const noTime = BUILT_IN_PLAYLISTS.filter((p) => !p.hasTimeInfo);
    expect(noTime.length).toBeGreaterThan(0);
    for (const playlist of noTime) expect(playlist.timeWindow).toBe('22-00');
  });
});

describe('buildImportPlaylists', () => {
  it('skips unparsable names with a console warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const built = buildImportPlaylists([
      { name: 'My favourite songs', owner: 'x', songCount: 10 },
      { name: "Swingtacular '24 Friday 9-11 pm", owner: 'y', songCount: 20 },
    ]);
    expect(built.map((p) => p.name)).toEqual(["Swingtacular '24 Friday 9-11 pm"]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('My favourite songs');
  });
});

describe('groupByYearAndNight', () => {
  it('orders years newest first, nights in festival order, sets by start time', () => {
    const groups = groupByYearAndNight(BUILT_IN_PLAYLISTS);
    expect(groups.map((g) => g.year)).toEqual([2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017]);
    expect(groups.flatMap((g) => g.nights.flatMap((n) => n.playlists))).toHaveLength(48);
    const y2024 = groups.find((g) => g.year === 2024);
    expect(y2024?.nights.map((n) => n.night)).toEqual(['Wednesday', 'Friday', 'Saturday', 'Sunday']);
    const saturday2024 = y2024?.nights.find((n) => n.night === 'Saturday')?.playlists.map((p) => p.name);
    // 23:30, then 02:00, then the one without a time.
    expect(saturday2024).toEqual([
      'US Open 2024 Saturday 11:30 pm-2 am',
      "Swing Diego '24 Saturday 2-4 am",
      'Boogie by the Bay 2024 Saturday',
    ]);
  });
});
