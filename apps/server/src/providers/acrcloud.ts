/**
 * ACRCloud identification (Identify Protocol V1): a multipart POST to https://<host>/v1/identify
 * with the clip as `sample`, signed with HMAC-SHA1 over
 * "POST\n/v1/identify\n<access_key>\naudio\n1\n<timestamp>" (base64). The answer carries
 * status.code (0 success, 1001 no result, 3001 bad key, 3003 quota, 3014 bad signature, ...) and,
 * on success, metadata.music[] whose best entry (highest score) is the match.
 */
import { createHmac } from 'node:crypto';
import {
  type CloudClip,
  type CloudMatch,
  type CloudRecognizer,
  CloudRecognizerError,
  postForm,
} from './cloud-recognizer.js';

export interface AcrCloudConfig {
  /** identify-eu-west-1.acrcloud.com, or a full http(s) URL (tests point it at a local fake). */
  host: string;
  accessKey: string;
  accessSecret: string;
}

export const ACRCLOUD_URI = '/v1/identify';

/** The documented string to sign and its base64 HMAC-SHA1 signature. */
export function acrCloudSignature(accessKey: string, accessSecret: string, timestamp: string): string {
  const stringToSign = ['POST', ACRCLOUD_URI, accessKey, 'audio', '1', timestamp].join('\n');
  return createHmac('sha1', accessSecret).update(stringToSign, 'utf8').digest('base64');
}

export function acrCloudUrl(host: string): string {
  const base = /^https?:\/\//i.test(host) ? host : `https://${host}`;
  return `${base.replace(/\/+$/, '')}${ACRCLOUD_URI}`;
}

interface AcrMusic {
  title?: string;
  artists?: { name?: string }[];
  album?: { name?: string };
  release_date?: string;
  external_ids?: { isrc?: string | string[] };
  acrid?: string;
  score?: number | string;
  genres?: { name?: string }[];
}

interface AcrResponse {
  status?: { code?: number; msg?: string };
  metadata?: { music?: AcrMusic[] };
}

const REASONS: Record<number, string> = {
  2000: 'the clip could not be read',
  2004: 'no fingerprint could be made from the clip',
  3001: 'the access key is missing or invalid',
  3003: 'the account has reached its request limit',
  3014: 'the signature was refused (check ACRCLOUD_ACCESS_SECRET)',
  3015: 'too many requests per second',
};

function toMatch(music: AcrMusic): CloudMatch | null {
  const title = music.title?.trim();
  const artist = (music.artists ?? [])
    .map((entry) => entry.name?.trim())
    .filter(Boolean)
    .join(', ');
  if (!title || !artist) return null;
  const isrc = Array.isArray(music.external_ids?.isrc)
    ? music.external_ids.isrc[0]
    : music.external_ids?.isrc;
  const score = Number(music.score);
  return {
    provider: 'acrcloud',
    title,
    artist,
    album: music.album?.name?.trim() || null,
    releaseDate: music.release_date?.trim() || null,
    isrc: isrc?.trim() || null,
    providerId: music.acrid ?? null,
    score: Number.isFinite(score) ? Math.min(1, Math.max(0, score / 100)) : null,
    genres: (music.genres ?? []).map((genre) => genre.name?.trim() ?? '').filter(Boolean),
  };
}

export function createAcrCloudRecognizer(
  config: AcrCloudConfig,
  now: () => Date = () => new Date(),
): CloudRecognizer {
  const url = acrCloudUrl(config.host);
  return {
    name: 'acrcloud',
    async identify(clip: CloudClip) {
      const timestamp = String(Math.floor(now().getTime() / 1000));
      const form = new FormData();
      form.append('sample', new Blob([clip.bytes], { type: clip.contentType }), clip.filename);
      form.append('access_key', config.accessKey);
      form.append('sample_bytes', String(clip.bytes.length));
      form.append('timestamp', timestamp);
      form.append('signature', acrCloudSignature(config.accessKey, config.accessSecret, timestamp));
      form.append('data_type', 'audio');
      form.append('signature_version', '1');
      const body = (await postForm('acrcloud', 'ACRCloud', url, form)) as AcrResponse;
      const code = body.status?.code;
      if (code === 1001) return null;
      if (code !== 0) {
        const reason = (code !== undefined && REASONS[code]) || body.status?.msg || 'an unknown error';
        throw new CloudRecognizerError(
          'acrcloud',
          `ACRCloud refused the request: ${reason} (code ${code ?? '?'})`,
        );
      }
      const candidates = (body.metadata?.music ?? [])
        .map(toMatch)
        .filter((match): match is CloudMatch => match !== null)
        .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
      return candidates[0] ?? null;
    },
  };
}
