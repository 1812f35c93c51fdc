import type { Genre } from '@wcs/contract';
import { foldText } from '../../text.js';

/**
 * The one table that maps genre tags (from files and providers) onto the product's five genres
 * (docs/product.md "Genres"). A tag not in the table maps to null: the song shows no genre until a
 * DJ sets one. Keys are written as people write them; they are compared after `genreKey`, so case,
 * accents, spaces, hyphens, '&', '/' and apostrophes do not matter ('R&B', 'r & b', "R'n'B",
 * 'RnB' and 'rnb' are one key; so are 'Hip-Hop', 'hip hop' and 'HipHop').
 * Documented in docs/metrics.md (Library import and demo data); change both together.
 */
export const GENRE_TABLE: Readonly<Record<Genre, readonly string[]>> = {
  'Blues/Jazz': [
    'blues',
    'jazz',
    'swing',
    'soul',
    'neo soul',
    'neo-soul',
    'blues rock',
    'electric blues',
    'modern blues',
    'delta blues',
    'chicago blues',
    'funk',
    'motown',
    'big band',
    'vocal jazz',
    'jazz vocal',
    'smooth jazz',
    'acid jazz',
    'nu jazz',
    'electro swing',
    'west coast swing',
    'wcs',
  ],
  'Hip-Hop/R&B': [
    'hip-hop',
    'hip hop',
    'rap',
    'r&b',
    'rnb',
    "r'n'b",
    'r and b',
    'rhythm and blues',
    'rhythm & blues',
    'contemporary r&b',
    'alternative r&b',
    'urban',
    'trap',
    'new jack swing',
    'g-funk',
  ],
  Acoustic: [
    'acoustic',
    'folk',
    'singer-songwriter',
    'singer/songwriter',
    'country',
    'americana',
    'bluegrass',
    'indie folk',
    'folk pop',
    'acoustic pop',
    'unplugged',
  ],
  Pop: [
    'pop',
    'dance-pop',
    'dance',
    'electropop',
    'synthpop',
    'synth-pop',
    'teen pop',
    'pop rock',
    'k-pop',
    'latin pop',
    'disco',
  ],
  Contemporary: [
    'contemporary',
    'electronic',
    'electronica',
    'edm',
    'indie',
    'indie pop',
    'indie rock',
    'alternative',
    'alternative rock',
    'alt-rock',
    'rock',
    'lyrical',
    'house',
    'deep house',
    'downtempo',
    'chillout',
    'chill',
    'trip-hop',
    'trip hop',
    'lo-fi',
    'ambient',
    'soundtrack',
    'cinematic',
    'experimental',
    'dubstep',
    'future bass',
  ],
};

/**
 * The comparison key of a genre tag: folded (case, accents), then reduced to letters and digits,
 * so every spelling of a tag meets the same key: 'R&B' and 'r & b' become 'rb', "R'n'B" and
 * 'RnB' 'rnb', 'Hip-Hop' and 'hip hop' 'hiphop'.
 */
export function genreKey(tag: string): string {
  return foldText(tag).replace(/[^a-z0-9]/g, '');
}

const GENRE_BY_KEY: ReadonlyMap<string, Genre> = (() => {
  const byKey = new Map<string, Genre>();
  for (const [genre, tags] of Object.entries(GENRE_TABLE) as Array<[Genre, readonly string[]]>) {
    for (const tag of tags) {
      const key = genreKey(tag);
      const existing = byKey.get(key);
      // One tag, one genre: a key listed under two genres is a mistake in the table.
      if (existing && existing !== genre)
        throw new Error(`Genre tag "${tag}" is mapped to both ${existing} and ${genre}`);
      byKey.set(key, genre);
    }
  }
  return byKey;
})();

/** Separators of several genres in one tag value ('Pop/Rock', 'Soul; Funk', 'Jazz, Blues'). */
const MULTI_GENRE_SEPARATOR = /[/;,|]/;

/**
 * The product genre of a file's or provider's genre tags. Each value is tried whole first (so
 * 'singer/songwriter' and 'R&B' stay one tag), then split on / ; , | into parts, in order; the
 * first value or part in the table wins. Nothing known gives null.
 */
export function mapGenre(tags: string | readonly string[] | null | undefined): Genre | null {
  if (tags === null || tags === undefined) return null;
  const values = typeof tags === 'string' ? [tags] : tags;
  for (const value of values) {
    const whole = GENRE_BY_KEY.get(genreKey(value));
    if (whole) return whole;
    for (const part of value.split(MULTI_GENRE_SEPARATOR)) {
      const genre = GENRE_BY_KEY.get(genreKey(part));
      if (genre) return genre;
    }
  }
  return null;
}
