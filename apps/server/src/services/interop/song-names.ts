import { foldText } from '../../text.js';

/**
 * The name key of a song: its title and main artist reduced to what names the recording, so that
 * 'Señorita (feat. Camila Cabello) [Radio Edit]' by 'Shawn Mendes & Camila Cabello' and
 * 'Senorita' by 'Shawn Mendes feat. Camila Cabello' meet. Built on the library's own folding
 * (`foldText`, text.ts: case, accents, white space), which is what the library import compares
 * (`songs.search_key`); the words below are the DJ programs' habits on top of it.
 *
 * - Featuring credits are dropped from the title ('(feat. X)', '[ft. X]', 'feat. X' at the end)
 *   and the artist is cut to the first one named (before 'feat.', '&', ',', ' x ', ' vs ', '/').
 * - Edit words that name no other recording are dropped: radio edit, single/album version, clean,
 *   explicit, dirty, original mix, main mix, remaster(ed) with its year, mono, stereo.
 * - Remixes, live and acoustic versions are other recordings: their words stay, written the same
 *   whether the file put them in brackets or after ' - ' ('Unsteady - Kygo Remix' and
 *   'Unsteady (Kygo Remix)' meet; 'Unsteady' does not).
 * - Punctuation is ignored (an apostrophe joins its word: 'Ain't' is 'aint'), '&' counts as 'and'.
 */

/** Bracketed or dashed words that only say how a recording was cut or labelled. */
const EDIT_WORDS =
  /^(?:(?:radio|single|album|clean|explicit|dirty|original|main|short|lp|uncensored|censored)(?:\s+(?:edit|version|mix|cut))?|edit|(?:\d{4}\s+)?(?:digital(?:ly)?\s+)?remaster(?:ed)?(?:\s+version)?(?:\s+\d{4})?|mono|stereo)$/;
const FEATURING = /^(?:feat|ft|featuring|with)\b/;
/** Where a featuring credit starts in a title or an artist. */
const FEATURING_TAIL = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;
/** Separators between artists; the first artist is the one the key keeps. */
const ARTIST_SEPARATORS = /\s*(?:,|;|\/|&|\+|\s(?:x|and|vs\.?|with|feat\.?|ft\.?|featuring)\s)\s*/i;

/** Folded words with punctuation removed ('&' as 'and'). */
function words(text: string): string {
  return foldText(text.replace(/&/g, ' and '))
    .replace(/['’`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** What a bracket or dashed part of a title contributes to the key: nothing, or its words. */
function qualifier(part: string): string {
  const folded = words(part);
  if (folded === '' || FEATURING.test(folded) || EDIT_WORDS.test(folded)) return '';
  return folded;
}

/** The title's core and its qualifiers (remix, live...), in a fixed form. */
export function normalizeTitle(title: string): string {
  const qualifiers: string[] = [];
  let core = title.replace(/[([{]([^)\]}]*)[)\]}]/g, (_match, inner: string) => {
    qualifiers.push(qualifier(inner));
    return ' ';
  });
  // 'Title - Radio Edit', 'Title - Kygo Remix': a dash with spaces ends the title proper.
  const dash = core.search(/\s[-–—]\s/);
  if (dash > 0) {
    qualifiers.unshift(qualifier(core.slice(dash + 3)));
    core = core.slice(0, dash);
  }
  core = core.replace(FEATURING_TAIL, '');
  const kept = qualifiers.filter((part) => part !== '');
  return [words(core), ...kept].filter((part) => part !== '').join(' ');
}

/** The first artist credited, folded ('' when none). */
export function mainArtist(artist: string): string {
  const first = artist.replace(FEATURING_TAIL, '').split(ARTIST_SEPARATORS)[0] ?? '';
  return words(first);
}

/** Artists that mean nobody in particular: all count as the library import's 'Unknown Artist'. */
const NO_ARTIST = new Set(['', 'unknown', 'unknown artist', 'various', 'various artists']);

/**
 * The key two songs share when they are the same recording by name, or null without a title. A
 * track without an artist meets only songs without one ('Unknown Artist', as the library import
 * and this import store them), never a song whose artist is known.
 */
export function songNameKey(title: string, artist: string): string | null {
  const core = normalizeTitle(title);
  const who = mainArtist(artist);
  if (core === '') return null;
  return `${core}\u0000${NO_ARTIST.has(who) ? 'unknown artist' : who}`;
}

/**
 * A title and artist from a file that names only its file: 'X Ambassadors - Unsteady' with no
 * artist is split at the first ' - '. Anything else is returned as it is.
 */
export function splitArtistFromTitle(title: string, artist: string): { title: string; artist: string } {
  if (artist.trim() !== '') return { title, artist };
  const at = title.indexOf(' - ');
  if (at <= 0) return { title, artist };
  return { artist: title.slice(0, at).trim(), title: title.slice(at + 3).trim() };
}
