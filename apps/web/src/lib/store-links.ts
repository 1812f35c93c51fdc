/**
 * Search links to the stores where a DJ can buy or hear a song, built from its artist and title
 * (URL-encoded), so buying a song the library lacks is one click. The product never downloads
 * from them: the DJ buys and drops the file into the library.
 */
export interface StoreLink {
  store: 'bandcamp' | 'beatport' | 'apple_music' | 'amazon_music' | 'youtube';
  label: string;
  url: string;
}

/** The five stores' search pages for "artist title", in this order. */
export function storeSearchLinks(artist: string, title: string): StoreLink[] {
  const terms = `${artist} ${title}`.replace(/\s+/g, ' ').trim();
  const q = encodeURIComponent(terms);
  return [
    { store: 'bandcamp', label: 'Bandcamp', url: `https://bandcamp.com/search?q=${q}&item_type=t` },
    { store: 'beatport', label: 'Beatport', url: `https://www.beatport.com/search?q=${q}` },
    { store: 'apple_music', label: 'Apple Music', url: `https://music.apple.com/us/search?term=${q}` },
    { store: 'amazon_music', label: 'Amazon Music', url: `https://music.amazon.com/search/${q}` },
    { store: 'youtube', label: 'YouTube', url: `https://www.youtube.com/results?search_query=${q}` },
  ];
}
