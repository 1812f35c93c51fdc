/**
 * Cloud recognisers (ACRCloud, AudD) behind one small interface. They are asked only about
 * stretches of a recording that our own fingerprint index did not recognise, one short clip at a
 * time, so a song the library lacks still becomes a play (and, with no file, a download candidate).
 *
 * A provider answers with a match, with `null` (it heard nothing it knows), or throws a
 * `CloudRecognizerError` whose message is fit to show on the recording (bad key, quota, network).
 */
export type CloudProviderName = 'acrcloud' | 'audd';

/** What a provider says a clip is. */
export interface CloudMatch {
  provider: CloudProviderName;
  title: string;
  artist: string;
  album: string | null;
  /** As the provider gives it (YYYY, YYYY-MM or YYYY-MM-DD); callers validate. */
  releaseDate: string | null;
  isrc: string | null;
  /** The provider's own id of the recording (ACRCloud acrid, AudD song link). */
  providerId: string | null;
  /** 0-1 when the provider scores its answer; null when it does not. */
  score: number | null;
  genres: string[];
}

/** One audio clip to identify: a small file (WAV) with its name and type. */
export interface CloudClip {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

export interface CloudRecognizer {
  readonly name: CloudProviderName;
  identify(clip: CloudClip): Promise<CloudMatch | null>;
}

/** A provider refused or could not be reached; the message names the provider and the reason. */
export class CloudRecognizerError extends Error {
  constructor(
    readonly provider: CloudProviderName,
    message: string,
  ) {
    super(message);
    this.name = 'CloudRecognizerError';
  }
}

/** How long one identification may take before it counts as a network failure. */
export const CLOUD_TIMEOUT_MS = 20_000;

/** POSTs a multipart form and returns the parsed JSON, turning transport failures into clear errors. */
export async function postForm(
  provider: CloudProviderName,
  label: string,
  url: string,
  form: FormData,
  timeoutMs = CLOUD_TIMEOUT_MS,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new CloudRecognizerError(provider, `${label} could not be reached (${reason})`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new CloudRecognizerError(
      provider,
      `${label} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CloudRecognizerError(provider, `${label} answered something that is not JSON`);
  }
}
