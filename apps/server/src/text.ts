/**
 * Letters that NFKD does not decompose into a base letter plus marks, folded the way a person
 * typing on an ASCII keyboard would write them.
 */
const EXTRA_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const EXTRA_FOLD_PATTERN = new RegExp(`[${Object.keys(EXTRA_FOLDS).join('')}]`, 'g');

/**
 * Text folded for case- and accent-insensitive matching: lower-cased, NFKD-decomposed with the
 * combining marks removed, runs of white space collapsed. 'Beyoncé' and 'BEYONCE' fold alike.
 * Lower-casing comes first so that 'İ' (i with a dot above) also ends as a plain 'i'.
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(EXTRA_FOLD_PATTERN, (letter) => EXTRA_FOLDS[letter] ?? letter)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The `songs.search_key` of a song: its folded "title artist". Write it on every insert or rename. */
export function songSearchKey(title: string, artist: string): string {
  return foldText(`${title} ${artist}`);
}
