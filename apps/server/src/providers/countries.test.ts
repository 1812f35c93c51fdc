import { describe, expect, it } from 'vitest';
import { countryFromAlpha3, defaultTimeZoneFor } from './countries.js';

describe('countryFromAlpha3', () => {
  it('maps an ISO alpha-3 code, in any case, to alpha-2 and a continent', () => {
    expect(countryFromAlpha3('USA')).toEqual({ code: 'US', continent: 'North America' });
    expect(countryFromAlpha3('swe')).toEqual({ code: 'SE', continent: 'Europe' });
    expect(countryFromAlpha3(' BRA ')).toEqual({ code: 'BR', continent: 'South America' });
    expect(countryFromAlpha3('NZL')).toEqual({ code: 'NZ', continent: 'Oceania' });
    expect(countryFromAlpha3('ZAF')).toEqual({ code: 'ZA', continent: 'Africa' });
    expect(countryFromAlpha3('KOR')).toEqual({ code: 'KR', continent: 'Asia' });
  });

  it('answers null for codes that are no ISO alpha-3 code', () => {
    for (const code of ['transparent', '', null, undefined, 'US', 'XKX', 'UK1']) {
      expect(countryFromAlpha3(code), String(code)).toBeNull();
    }
  });
});

describe('defaultTimeZoneFor', () => {
  it('takes the zone of a city the location names', () => {
    expect(defaultTimeZoneFor('US', 'Los Angeles, CA, United States')).toBe('America/Los_Angeles');
    expect(defaultTimeZoneFor('US', 'Phoenix, AZ')).toBe('America/Phoenix');
    expect(defaultTimeZoneFor('AU', 'Melbourne, Victoria, Australia')).toBe('Australia/Melbourne');
    expect(defaultTimeZoneFor('CA', 'Vancouver, BC, Canada')).toBe('America/Vancouver');
  });

  it('else takes the capital’s zone', () => {
    expect(defaultTimeZoneFor('US', 'Hartford, CT')).toBe('America/New_York');
    expect(defaultTimeZoneFor('CA', 'Waterloo, Ontario, Canada')).toBe('America/Toronto');
    expect(defaultTimeZoneFor('BR', 'Rio de Janeiro, RJ, Brazil')).toBe('America/Sao_Paulo');
    expect(defaultTimeZoneFor('SE', 'Östersund, Jämtland, Sweden')).toBe('Europe/Stockholm');
    expect(defaultTimeZoneFor('RU', null)).toBe('Europe/Moscow');
    expect(defaultTimeZoneFor('MX', null)).toBe('America/Mexico_City');
  });

  it('takes the only zone of a one-zone country, and null for no country', () => {
    expect(defaultTimeZoneFor('HU', 'Budapest, Hungary')).toBe('Europe/Budapest');
    expect(defaultTimeZoneFor('JP', null)).toBe('Asia/Tokyo');
    expect(defaultTimeZoneFor(null, 'Moscow, Russia')).toBeNull();
  });
});
