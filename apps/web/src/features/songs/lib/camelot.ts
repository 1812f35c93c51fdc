/**
 * The Camelot wheel code of a musical key (harmonic mixing): minor keys are 1A-12A, major keys
 * 1B-12B, and neighbours on the wheel mix well. Keys arrive in standard notation ('A minor',
 * 'F# major'); short forms ('Am', 'F#', 'Dbm', 'Bb min') and an existing Camelot code are read too.
 */

/** Pitch class (C = 0) of each note name the analysis may write, sharps and flats alike. */
const PITCH_CLASS: Readonly<Record<string, number>> = {
  C: 0,
  'B#': 0,
  'C#': 1,
  Db: 1,
  D: 2,
  'D#': 3,
  Eb: 3,
  E: 4,
  Fb: 4,
  F: 5,
  'E#': 5,
  'F#': 6,
  Gb: 6,
  G: 7,
  'G#': 8,
  Ab: 8,
  A: 9,
  'A#': 10,
  Bb: 10,
  B: 11,
  Cb: 11,
};

/** Camelot number by pitch class: major keys (B) start at C = 8B; minor keys (A) at A = 8A. */
const MAJOR_NUMBER = [8, 3, 10, 5, 12, 7, 2, 9, 4, 11, 6, 1] as const;
const MINOR_NUMBER = [5, 12, 7, 2, 9, 4, 11, 6, 1, 8, 3, 10] as const;

const KEY_PATTERN = /^([A-Ga-g])\s*([#♯b♭]?)\s*(major|maj|minor|min|m)?$/i;
const CAMELOT_PATTERN = /^(1[0-2]|[1-9])\s*([AaBb])$/;

/** '8A' for 'A minor', '2B' for 'F# major'; null when the text is not a key. */
export function camelot(key: string | null | undefined): string | null {
  if (!key) return null;
  const text = key.trim();
  const existing = CAMELOT_PATTERN.exec(text);
  if (existing) return `${existing[1]}${existing[2]?.toUpperCase()}`;

  const match = KEY_PATTERN.exec(text);
  if (!match) return null;
  const [, letter = '', accidental = '', mode = ''] = match;
  const sign = accidental === '♯' ? '#' : accidental === '♭' ? 'b' : accidental;
  const pitch = PITCH_CLASS[`${letter.toUpperCase()}${sign}`];
  if (pitch === undefined) return null;
  // 'm' alone is minor ('Am'), a capital 'M' major; no mode at all is major ('F#'), as DJ software writes it.
  const isMinor = mode !== 'M' && ['minor', 'min', 'm'].includes(mode.toLowerCase());
  return isMinor ? `${MINOR_NUMBER[pitch]}A` : `${MAJOR_NUMBER[pitch]}B`;
}

/** 'A minor (8A)', the key alone when it has no Camelot code, '—' without a key. */
export function formatKey(key: string | null | undefined): string {
  if (!key) return '—';
  const code = camelot(key);
  return code && code !== key.trim() ? `${key} (${code})` : key;
}
