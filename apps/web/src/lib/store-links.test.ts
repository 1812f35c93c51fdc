import { describe, expect, it } from 'vitest';
import { storeSearchLinks } from './store-links';

describe('storeSearchLinks', () => {
  it('builds the five stores search pages from artist and title', () => {
    expect(storeSearchLinks('Tove Lo', 'Talking Body')).toEqual([
      {
        store: 'bandcamp',
        label: 'Bandcamp',
        url: 'https://bandcamp.com/search?q=Tove%20Lo%20Talking%20Body&item_type=t',
      },
      {
        store: 'beatport',
        label: 'Beatport',
        url: 'https://www.beatport.com/search?q=Tove%20Lo%20Talking%20Body',
      },
      {
        store: 'apple_music',
        label: 'Apple Music',
        url: 'https://music.apple.com/us/search?term=Tove%20Lo%20Talking%20Body',
      },
      {
        store: 'amazon_music',
        label: 'Amazon Music',
        url: 'https://music.amazon.com/search/Tove%20Lo%20Talking%20Body',
      },
      {
        store: 'youtube',
        label: 'YouTube',
        url: 'https://www.youtube.com/results?search_query=Tove%20Lo%20Talking%20Body',
      },
    ]);
  });

  it('encodes every character that would change the URL, and collapses white space', () => {
    const links = storeSearchLinks('  AC/DC &  Friends ', 'What? #1 100% "Live"+');
    const encoded = 'AC%2FDC%20%26%20Friends%20What%3F%20%231%20100%25%20%22Live%22%2B';
    for (const link of links) {
      expect(link.url).toContain(encoded);
      // The query survives a round trip through the URL parser unchanged.
      const url = new URL(link.url);
      const value =
        url.searchParams.get('q') ??
        url.searchParams.get('term') ??
        url.searchParams.get('search_query') ??
        decodeURIComponent(url.pathname.split('/').pop() ?? '');
      expect(value).toBe('AC/DC & Friends What? #1 100% "Live"+');
    }
  });

  it('keeps accents and other scripts as UTF-8', () => {
    const [bandcamp] = storeSearchLinks('Beyoncé', 'Déjà Vu');
    expect(bandcamp!.url).toBe(
      'https://bandcamp.com/search?q=Beyonc%C3%A9%20D%C3%A9j%C3%A0%20Vu&item_type=t',
    );
  });
});
