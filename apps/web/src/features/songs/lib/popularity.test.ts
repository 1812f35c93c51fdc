import { describe, expect, it } from 'vitest';
import { popularityDisplay } from './popularity';

describe('popularityDisplay', () => {
  it("shows Spotify's number as it is", () => {
    expect(
      popularityDisplay({ spotify_popularity: 71, sources: { spotify_popularity: 'spotify' } }, true),
    ).toMatchObject({
      text: '71',
      kind: 'spotify',
    });
  });

  it('marks the demo generator and DJ values as not Spotify', () => {
    const demo = popularityDisplay(
      { spotify_popularity: 88, sources: { spotify_popularity: 'demo' } },
      false,
    );
    expect(demo).toMatchObject({ text: '88 (demo)', kind: 'demo' });
    expect(demo.description).toMatch(/demo generator, not Spotify's/);
    expect(
      popularityDisplay({ spotify_popularity: 40, sources: { spotify_popularity: 'dj' } }, true).text,
    ).toBe('40 (DJ)');
    expect(popularityDisplay({ spotify_popularity: 40, sources: {} }, true).kind).toBe('other');
  });

  it('says what to set when Spotify is not configured, and a dash while it is', () => {
    const missing = popularityDisplay({ spotify_popularity: null, sources: {} }, false);
    expect(missing.text).toBe('not configured');
    expect(missing.description).toMatch(/SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET/);
    expect(popularityDisplay({ spotify_popularity: null, sources: {} }, true).text).toBe('—');
    // Unknown yet (the providers call is loading): no claim either way.
    expect(popularityDisplay({ spotify_popularity: null, sources: {} }, undefined).text).toBe('—');
  });
});
