import ct from 'countries-and-timezones';
import { continents, countries, type TCountryCode } from 'countries-list';
import isoCountries from 'i18n-iso-countries';
import { foldText } from '../text.js';

/**
 * Country data for scraped events, from maintained packages rather than hand-written tables:
 * `i18n-iso-countries` for ISO 3166-1 alpha-3 -> alpha-2, `countries-list` for the continent and
 * the capital, `countries-and-timezones` for the IANA time zones of a country.
 */

export interface CountryInfo {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  /** Continent name as `countries-list` assigns it ('Europe', 'North America', ...). */
  continent: string | null;
}

/**
 * The country of a three-letter code such as the calendar's flag links carry ('USA', 'swe').
 * Anything that is not an ISO alpha-3 code ('transparent', '', 'XKX') answers null.
 */
export function countryFromAlpha3(alpha3: string | null | undefined): CountryInfo | null {
  const raw = alpha3?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{3}$/.test(raw)) return null;
  const code = isoCountries.alpha3ToAlpha2(raw);
  if (!code) return null;
  const continentCode = countries[code as TCountryCode]?.continent;
  return { code, continent: continentCode ? continents[continentCode] : null };
}

/**
 * Time zones of countries with more than one zone, where the tz database names no zone after the
 * capital (zones are named after their largest city): the zone the capital lies in.
 */
const CAPITAL_ZONES: Record<string, string> = {
  US: 'America/New_York', // Washington, D.C.
  CA: 'America/Toronto', // Ottawa
  BR: 'America/Sao_Paulo', // Brasília
  NZ: 'Pacific/Auckland', // Wellington
  KZ: 'Asia/Almaty', // Astana
  EC: 'America/Guayaquil', // Quito
};

/** 'America/Los_Angeles' -> 'los angeles'. */
const zoneCity = (zone: string) => foldText((zone.split('/').at(-1) ?? '').replaceAll('_', ' '));

const containsWords = (text: string, words: string) =>
  words !== '' &&
  new RegExp(`(^|[^a-z0-9])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`).test(text);

/**
 * A sensible IANA time zone for an event in a country, or null for an unknown country:
 * 1. a zone of the country named after a city the location mentions ('Los Angeles, CA' ->
 *    America/Los_Angeles, 'Melbourne, Victoria' -> Australia/Melbourne);
 * 2. else the capital's zone: the zone named after the capital, or `CAPITAL_ZONES`;
 * 3. else the country's first zone (most countries have exactly one).
 * The DJ can change it on the event; it decides the time window of every play there.
 */
export function defaultTimeZoneFor(countryCode: string | null, location: string | null): string | null {
  if (!countryCode) return null;
  // Deprecated names are kept: 'Europe/Stockholm' is an alias of Europe/Berlin in the tz
  // database, and a DJ in Sweden expects to see Stockholm.
  const zones = ct.getTimezonesForCountry(countryCode, { deprecated: true })?.map((zone) => zone.name) ?? [];
  if (zones.length === 0) return null;

  const place = foldText(location ?? '');
  const mentioned = zones
    .filter((zone) => containsWords(place, zoneCity(zone)))
    .sort((a, b) => zoneCity(b).length - zoneCity(a).length);
  if (mentioned[0]) return mentioned[0];

  const capital = foldText(countries[countryCode as TCountryCode]?.capital ?? '');
  const capitalZone = zones.find((zone) => zoneCity(zone) === capital) ?? CAPITAL_ZONES[countryCode];
  if (capitalZone) return capitalZone;

  const canonical = ct.getCountry(countryCode)?.timezones ?? [];
  return canonical[0] ?? zones[0] ?? null;
}
