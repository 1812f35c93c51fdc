/**
 * Musical keys. Files keep the key as written ('8A' Camelot, '1m' Open Key, 'Am' or 'F#m'), and
 * so does `DjTrack.musicalKey`. Traktor also stores a number (`MUSICAL_KEY VALUE`, 0-11 the
 * major keys from C, 12-23 the minor keys from C minor, as its collections show: 'Am' = 21,
 * 'G' = 7); these helpers move between that number and the written notations. Engine DJ stores
 * only a number, in its own order (see `keyNameOfEngineIndex`).
 */

const MAJOR_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;
const MINOR_NAMES = ['Cm', 'C#m', 'Dm', 'Ebm', 'Em', 'Fm', 'F#m', 'Gm', 'G#m', 'Am', 'Bbm', 'Bm'] as const;

/** Pitch class (C = 0) of each Camelot number, minor ('A') and major ('B') wheels. */
const CAMELOT_MINOR = [8, 3, 10, 5, 0, 7, 2, 9, 4, 11, 6, 1] as const;
const CAMELOT_MAJOR = [11, 6, 1, 8, 3, 10, 5, 0, 7, 2, 9, 4] as const;

const LETTERS: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** Traktor's key number (0-23) of a written key, or null when the notation is not known. */
export function traktorKeyIndex(written: string): number | null {
  const key = written.trim();
  const camelot = /^(1[0-2]|[1-9])\s*([AB])$/i.exec(key);
  if (camelot) {
    const number = Number(camelot[1]) - 1;
    return camelot[2]!.toUpperCase() === 'A' ? 12 + CAMELOT_MINOR[number]! : CAMELOT_MAJOR[number]!;
  }
  const openKey = /^(1[0-2]|[1-9])\s*([md])$/i.exec(key);
  if (openKey) {
    // Open Key n is Camelot ((n + 6) mod 12) + 1: 1m = 8A = A minor, 1d = 8B = C major.
    const number = (Number(openKey[1]) + 6) % 12;
    return openKey[2]!.toLowerCase() === 'm' ? 12 + CAMELOT_MINOR[number]! : CAMELOT_MAJOR[number]!;
  }
  const named = /^([A-Ga-g])\s*([#♯b♭]?)\s*(m|min|minor|maj|major)?$/.exec(key);
  if (named) {
    const accidental =
      named[2] === '#' || named[2] === '♯' ? 1 : named[2] === 'b' || named[2] === '♭' ? -1 : 0;
    const pitch = (LETTERS[named[1]!.toUpperCase()]! + accidental + 12) % 12;
    const quality = named[3]?.toLowerCase() ?? '';
    const minor = quality.startsWith('m') && !quality.startsWith('maj');
    return minor ? 12 + pitch : pitch;
  }
  return null;
}

/** The usual name of Traktor's key number: 0 'C', 21 'Am'; null outside 0-23. */
export function keyNameOfTraktorIndex(index: number): string | null {
  if (!Number.isInteger(index) || index < 0 || index > 23) return null;
  return index < 12 ? MAJOR_NAMES[index]! : MINOR_NAMES[index - 12]!;
}

/**
 * The usual name of Engine DJ's key number (`Track.key`, 0-23), or null outside 0-23. Engine
 * walks the circle of fifths from C major, each major key followed by its relative minor:
 * 0 C, 1 Am, 2 G, 3 Em ... 22 F, 23 Dm (libdjinterop's `musical_key` order, and the Camelot
 * wheel engine-dj-mcp found in Engine's own conversion; docs/interop.md links both). So key n is
 * Camelot ((7 + floor(n / 2)) mod 12) + 1, 'B' when n is even and 'A' when odd.
 */
export function keyNameOfEngineIndex(index: number): string | null {
  if (!Number.isInteger(index) || index < 0 || index > 23) return null;
  const camelot = `${((7 + Math.floor(index / 2)) % 12) + 1}${index % 2 === 0 ? 'B' : 'A'}`;
  return keyNameOfTraktorIndex(traktorKeyIndex(camelot)!);
}
