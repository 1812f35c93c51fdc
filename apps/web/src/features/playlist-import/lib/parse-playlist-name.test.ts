import { describe, expect, it } from 'vitest';
import {
  parsePlaylistName,
  parseStartTime,
  parseWeekday,
  parseYear,
  timeWindowForStart,
} from './parse-playlist-name.js';

describe('parseYear', () => {
  it("reads a two-digit apostrophe year from '17 to '25", () => {
    expect(parseYear("Swingtacular '23 Friday")).toBe(2023);
    expect(parseYear("Budafest '17 Friday")).toBe(2017);
    expect(parseYear('Liberty ’25 Sunday')).toBe(2025);
  });
  it('refuses apostrophe years outside 17-25', () => {
    expect(parseYear("Swingtacular '16 Friday")).toBeNull();
    expect(parseYear("Swingtacular '26 Friday")).toBeNull();
  });
  it('reads a four-digit year', () => {
    expect(parseYear('Boogie by the Bay 2019 Saturday late night')).toBe(2019);
    expect(parseYear('Phoenix 4th of July 2023 Saturday 9:30-11:30 pm')).toBe(2023);
  });
  it('finds no year in a name without one', () => {
    expect(parseYear('Friday night vibes 10-1 am')).toBeNull();
  });
});

describe('parseWeekday', () => {
  it('recognises weekday names and their short forms', () => {
    expect(parseWeekday("Swingtacular '23 Friday 10:30-1 am")).toBe('Friday');
    expect(parseWeekday('US Open 2024 wednesday')).toBe('Wednesday');
    expect(parseWeekday('MadJam 2019 Sat late night')).toBe('Saturday');
    expect(parseWeekday('Summer Hummer 2022 Thurs')).toBe('Thursday');
    expect(parseWeekday('Sunday Funday 2021')).toBe('Sunday');
    expect(parseWeekday('Monterey 2022 Monday')).toBe('Monday');
    expect(parseWeekday('Tuesday 2022')).toBe('Tuesday');
  });
  it('does not take words that merely start like a weekday', () => {
    expect(parseWeekday('Sunset Swing 2022 Saturn')).toBeNull();
  });
});

describe('parseStartTime', () => {
  it("reads ranges like '1:30-3 am' (start in the end's meridiem)", () => {
    expect(parseStartTime('Swingtacular 2018 Saturday 1:30-3 am')).toBe('01:30');
    expect(parseStartTime("Liberty Swing '19 Sunday 1-3 am")).toBe('01:00');
    expect(parseStartTime('Capital Swing 2022 Saturday 3-5 am')).toBe('03:00');
    expect(parseStartTime('Liberty Swing 2025 Friday 9-11 pm')).toBe('21:00');
  });
  it('starts the evening before when the start comes after the end on the clock', () => {
    expect(parseStartTime("Swingtacular '23 Friday 10:30-1 am")).toBe('22:30');
    expect(parseStartTime('Seattle Easter Swing 2023 Friday 11-2 am')).toBe('23:00');
    expect(parseStartTime('Summer Hummer 2022 Friday 10-12:30 am')).toBe('22:00');
  });
  it('treats 12 am as midnight', () => {
    expect(parseStartTime('Liberty Swing 2021 Saturday 12:30-2 am')).toBe('00:30');
  });
  it('honours a meridiem on the start', () => {
    expect(parseStartTime('US Open 2024 Saturday 11:30 pm-2 am')).toBe('23:30');
    expect(parseStartTime("Boogie by the Bay '17 Sunday 9:30 pm-12 am")).toBe('21:30');
    expect(parseStartTime('Night 2024 Friday 10 p.m.')).toBe('22:00');
  });
  it('reads single times and ranges without a meridiem as night hours', () => {
    expect(parseStartTime("Desert City Swing '20 Saturday 11 pm-2 am")).toBe('23:00');
    expect(parseStartTime('Event 2022 Friday 10:45')).toBe('22:45');
    expect(parseStartTime('Event 2022 Friday 10-2')).toBe('22:00');
    expect(parseStartTime('Event 2022 Friday 2-4')).toBe('02:00');
    expect(parseStartTime('Event 2022 Friday 22:30-01:00')).toBe('22:30');
  });
  it("knows 'midnight', 'late night' and 'closing'", () => {
    expect(parseStartTime("Seattle Easter Swing '18 Saturday midnight")).toBe('00:00');
    expect(parseStartTime("Desert City Swing '25 Sunday midnight-3 am")).toBe('00:00');
    expect(parseStartTime('Boogie by the Bay 2019 Saturday late night')).toBe('02:00');
    expect(parseStartTime('Liberty Swing 2025 Saturday closing')).toBe('04:00');
    expect(parseStartTime('Tampa 2022 Friday Late-Night')).toBe('02:00');
  });
  it('does not mistake years or ordinals for times', () => {
    expect(parseStartTime("Phoenix 4th of July '18 Friday")).toBeNull();
    expect(parseStartTime("Swingtacular '23 Friday")).toBeNull();
    expect(parseStartTime('MadJam 2025 Thursday')).toBeNull();
    expect(parseStartTime('Phoenix 4th of July 2023 Saturday 9:30-11:30 pm')).toBe('21:30');
  });
});

describe('parsePlaylistName', () => {
  it('reads the specification examples', () => {
    expect(parsePlaylistName("Swingtacular '23 Friday 10:30-1 am")).toEqual({
      year: 2023,
      dayOfWeek: 'Friday',
      setStartTime: '22:30',
    });
    expect(parsePlaylistName('Boogie by the Bay 2019 Saturday late night')).toEqual({
      year: 2019,
      dayOfWeek: 'Saturday',
      setStartTime: '02:00',
    });
  });
  it('keeps names without weekday or time, and refuses names without a year', () => {
    expect(parsePlaylistName('Trilogy Swing 2017 Saturday')).toEqual({
      year: 2017,
      dayOfWeek: 'Saturday',
      setStartTime: null,
    });
    expect(parsePlaylistName('Festival 2020')).toEqual({ year: 2020, dayOfWeek: null, setStartTime: null });
    expect(parsePlaylistName('My favourite WCS songs')).toBeNull();
  });
});

describe('timeWindowForStart', () => {
  it('maps 20:00-21:59 to 20-22', () => {
    expect(timeWindowForStart('20:00')).toBe('20-22');
    expect(timeWindowForStart('21:59')).toBe('20-22');
  });
  it('maps 22:00 up to and including 00:xx to 22-00', () => {
    expect(timeWindowForStart('22:00')).toBe('22-00');
    expect(timeWindowForStart('23:59')).toBe('22-00');
    expect(timeWindowForStart('00:00')).toBe('22-00');
    expect(timeWindowForStart('00:59')).toBe('22-00');
  });
  it('maps the small hours to 00-02, 02-04 and 04-06', () => {
    expect(timeWindowForStart('01:00')).toBe('00-02');
    expect(timeWindowForStart('01:59')).toBe('00-02');
    expect(timeWindowForStart('02:00')).toBe('02-04');
    expect(timeWindowForStart('03:59')).toBe('02-04');
    expect(timeWindowForStart('04:00')).toBe('04-06');
    expect(timeWindowForStart('05:59')).toBe('04-06');
  });
  it('gives daytime and bad input no window', () => {
    expect(timeWindowForStart('06:00')).toBeNull();
    expect(timeWindowForStart('19:59')).toBeNull();
    expect(timeWindowForStart('late')).toBeNull();
  });
});
