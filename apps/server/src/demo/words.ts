import type { Genre } from '@wcs/contract';

/**
 * The names, places and words the demo plan (generate.ts) draws from. Fixed lists, in a fixed
 * order: a seed picks entries by index, so editing a list changes the plan a seed gives.
 */

interface Place {
  city: string;
  country: string;
  countryCode: string;
  timezone: string;
  continent: string;
}

const place = (city: string, country: string, countryCode: string, timezone: string, continent: string) =>
  ({ city, country, countryCode, timezone, continent }) satisfies Place;

/** Where the demo DJ plays the weekly parties: the home scene and its neighbours. */
export const PARTY_PLACES: readonly Place[] = [
  place('Köln', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Düsseldorf', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Bonn', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Essen', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Amsterdam', 'Netherlands', 'NL', 'Europe/Amsterdam', 'Europe'),
  place('Brussels', 'Belgium', 'BE', 'Europe/Brussels', 'Europe'),
];
/** Party series: each place has its regular night(s). */
export const PARTY_SERIES = [
  { name: 'Westie Friday', weekday: 5 },
  { name: 'Saturday Swing Social', weekday: 6 },
  { name: 'Midweek Westies', weekday: 3 },
] as const;

/** Festival cities around the world, in many time zones. */
export const FESTIVAL_PLACES: readonly Place[] = [
  place('Berlin', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Hamburg', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('München', 'Germany', 'DE', 'Europe/Berlin', 'Europe'),
  place('Paris', 'France', 'FR', 'Europe/Paris', 'Europe'),
  place('Lyon', 'France', 'FR', 'Europe/Paris', 'Europe'),
  place('Gdańsk', 'Poland', 'PL', 'Europe/Warsaw', 'Europe'),
  place('Budapest', 'Hungary', 'HU', 'Europe/Budapest', 'Europe'),
  place('Praha', 'Czechia', 'CZ', 'Europe/Prague', 'Europe'),
  place('London', 'United Kingdom', 'GB', 'Europe/London', 'Europe'),
  place('Stockholm', 'Sweden', 'SE', 'Europe/Stockholm', 'Europe'),
  place('Helsinki', 'Finland', 'FI', 'Europe/Helsinki', 'Europe'),
  place('Madrid', 'Spain', 'ES', 'Europe/Madrid', 'Europe'),
  place('Lisboa', 'Portugal', 'PT', 'Europe/Lisbon', 'Europe'),
  place('Zürich', 'Switzerland', 'CH', 'Europe/Zurich', 'Europe'),
  place('Wien', 'Austria', 'AT', 'Europe/Vienna', 'Europe'),
  place('København', 'Denmark', 'DK', 'Europe/Copenhagen', 'Europe'),
  place('Oslo', 'Norway', 'NO', 'Europe/Oslo', 'Europe'),
  place('New York', 'United States', 'US', 'America/New_York', 'North America'),
  place('Chicago', 'United States', 'US', 'America/Chicago', 'North America'),
  place('Denver', 'United States', 'US', 'America/Denver', 'North America'),
  place('Phoenix', 'United States', 'US', 'America/Phoenix', 'North America'),
  place('Los Angeles', 'United States', 'US', 'America/Los_Angeles', 'North America'),
  place('Toronto', 'Canada', 'CA', 'America/Toronto', 'North America'),
  place('São Paulo', 'Brazil', 'BR', 'America/Sao_Paulo', 'South America'),
  place('Sydney', 'Australia', 'AU', 'Australia/Sydney', 'Oceania'),
  place('Melbourne', 'Australia', 'AU', 'Australia/Melbourne', 'Oceania'),
  place('Auckland', 'New Zealand', 'NZ', 'Pacific/Auckland', 'Oceania'),
  place('Tel Aviv', 'Israel', 'IL', 'Asia/Jerusalem', 'Asia'),
  place('Singapore', 'Singapore', 'SG', 'Asia/Singapore', 'Asia'),
  place('Tallinn', 'Estonia', 'EE', 'Europe/Tallinn', 'Europe'),
];
export const FESTIVAL_FORMATS = [
  (city: string) => `${city} Swing Open`,
  (city: string) => `${city} Westie Weekend`,
  (city: string) => `${city} WCS Classic`,
  (city: string) => `Swing Fling ${city}`,
  (city: string) => `${city} Summer Swing`,
  (city: string) => `${city} Westie Marathon`,
] as const;
/** Formats no demo festival uses: scraped rows that must not look like duplicates. */
export const OTHER_FORMATS = [
  (city: string) => `${city} Dance Camp`,
  (city: string) => `${city} Swing Bash`,
  (city: string) => `Westies of ${city}`,
  (city: string) => `${city} Groove Jam`,
] as const;

export const ADJECTIVES = [
  'Golden',
  'Slow',
  'Midnight',
  'Velvet',
  'Electric',
  'Quiet',
  'Wild',
  'Blue',
  'Silver',
  'Broken',
  'Sweet',
  'Lonely',
  'Crimson',
  'Hidden',
  'Restless',
  'Gentle',
  'Burning',
  'Paper',
  'Neon',
  'Faded',
  'Honey',
  'Cold',
  'Bright',
  'Lazy',
  'Secret',
  'Shallow',
  'Heavy',
  'Easy',
  'Sunday',
  'Summer',
] as const;
export const NOUNS = [
  'Heart',
  'River',
  'Hour',
  'Light',
  'Fire',
  'Rain',
  'Road',
  'Dream',
  'Shadow',
  'Groove',
  'Motion',
  'Letter',
  'Promise',
  'Window',
  'Highway',
  'Ocean',
  'Echo',
  'Feeling',
  'Garden',
  'Mirror',
  'Season',
  'Storm',
  'Whisper',
  'Thunder',
  'Kiss',
  'Smoke',
  'Satellite',
  'Diamond',
  'Horizon',
  'Melody',
] as const;
export const VERBS = [
  'Hold',
  'Call',
  'Chase',
  'Follow',
  'Save',
  'Take',
  'Keep',
  'Find',
  'Lose',
  'Feel',
  'Move',
  'Touch',
];
export const OBJECTS = [
  'Me',
  'You',
  'the Night',
  'Your Love',
  'the Moment',
  'My Breath',
  'the Light',
  'It Slow',
  'On',
  'Me Home',
];
export const FIRST_NAMES = [
  'Lena',
  'Marcus',
  'Nia',
  'Theo',
  'Ava',
  'Jonah',
  'Maya',
  'Elias',
  'Zoë',
  'Caleb',
  'Iris',
  'Felix',
  'Nora',
  'Leon',
  'Sade',
  'Omar',
  'Clara',
  'Jasper',
  'Amara',
  'Milo',
  'Ruby',
  'Isaac',
  'Elena',
  'Kofi',
  'Hana',
  'Rafael',
  'Lucía',
  'Anton',
  'Freya',
  'Dario',
] as const;
export const LAST_NAMES = [
  'Hart',
  'Vale',
  'Monroe',
  'Castillo',
  'Reyes',
  'Kane',
  'Sol',
  'Winter',
  'Brooks',
  'Fontaine',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Quinn',
  'Haddad',
  'Novák',
  'Santos',
  'Blake',
  'Ivers',
  'Marsh',
  'Delacroix',
  'Young',
  'Sato',
  'Keller',
  'Baptiste',
  'Lowe',
  'Rivers',
  'Stone',
  'Ferreira',
  'Ames',
] as const;
export const VERSIONS = [' (Acoustic)', ' (Remix)', ' (Live)', ' (Slow Version)', ' (Radio Edit)'];
export const KEYS = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'].flatMap((note) => [
  `${note} major`,
  `${note} minor`,
]);

/** How common each genre is in a WCS library. */
export const GENRE_SHARE: Record<Genre, number> = {
  Contemporary: 0.28,
  Pop: 0.25,
  'Hip-Hop/R&B': 0.2,
  'Blues/Jazz': 0.15,
  Acoustic: 0.12,
};
/** Tags a file of each genre would carry (each maps back onto its genre through genre-map.ts). */
export const GENRE_TAGS: Record<Genre, readonly string[]> = {
  Acoustic: ['Acoustic', 'Folk', 'Singer-Songwriter'],
  'Hip-Hop/R&B': ['R&B', 'Hip-Hop', 'RnB'],
  Pop: ['Pop', 'Dance-Pop', 'Electropop'],
  Contemporary: ['Indie', 'Electronic', 'Alternative'],
  'Blues/Jazz': ['Blues', 'Soul', 'Jazz'],
};
/** Genres lean: Blues/Jazz slower and calmer, Pop faster and brighter (BPM, energy offsets). */
export const GENRE_LEAN: Record<Genre, { bpm: number; energy: number }> = {
  Acoustic: { bpm: -4, energy: -120 },
  'Hip-Hop/R&B': { bpm: -2, energy: 40 },
  Pop: { bpm: 4, energy: 80 },
  Contemporary: { bpm: 1, energy: 0 },
  'Blues/Jazz': { bpm: -6, energy: -90 },
};
