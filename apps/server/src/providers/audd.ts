/**
 * AudD identification: a multipart POST to https://api.audd.io/ with `api_token`, the clip as
 * `file` and `return=apple_music,spotify` (for the ISRC). The answer is
 * {status: 'success', result: {artist, title, album, release_date, song_link, ...} | null} or
 * {status: 'error', error: {error_code, error_message}}. AudD gives no score for a match.
 */
import {
  type CloudClip,
  type CloudMatch,
  type CloudRecognizer,
  CloudRecognizerError,
  postForm,
} from './cloud-recognizer.js';

export interface AuddConfig {
  apiToken: string;
  url: string;
}

interface AuddResult {
  artist?: string;
  title?: string;
  album?: string;
  release_date?: string;
  song_link?: string;
  apple_music?: { isrc?: string; genreNames?: string[] };
  spotify?: { external_ids?: { isrc?: string } };
}

interface AuddResponse {
  status?: string;
  result?: AuddResult | null;
  error?: { error_code?: number; error_message?: string };
}

function toMatch(result: AuddResult): CloudMatch | null {
  const title = result.title?.trim();
  const artist = result.artist?.trim();
  if (!title || !artist) return null;
  const isrc = result.apple_music?.isrc ?? result.spotify?.external_ids?.isrc;
  return {
    provider: 'audd',
    title,
    artist,
    album: result.album?.trim() || null,
    releaseDate: result.release_date?.trim() || null,
    isrc: isrc?.trim() || null,
    providerId: result.song_link ?? null,
    score: null,
    genres: (result.apple_music?.genreNames ?? []).filter((name) => name && name !== 'Music'),
  };
}

export function createAuddRecognizer(config: AuddConfig): CloudRecognizer {
  return {
    name: 'audd',
    async identify(clip: CloudClip) {
      const form = new FormData();
      form.append('api_token', config.apiToken);
      form.append('return', 'apple_music,spotify');
      form.append('file', new Blob([clip.bytes], { type: clip.contentType }), clip.filename);
      const body = (await postForm('audd', 'AudD', config.url, form)) as AuddResponse;
      if (body.status === 'success') return body.result ? toMatch(body.result) : null;
      const code = body.error?.error_code;
      const message = body.error?.error_message?.trim() || 'an unknown error';
      throw new CloudRecognizerError('audd', `AudD refused the request: ${message} (code ${code ?? '?'})`);
    },
  };
}
