import path from 'node:path';
import { parse as parseShellWords } from 'shell-quote';

/** The file `wcs demo seed` leaves in a demo data folder (its login page then names the demo account). */
export const DEMO_MARKER_FILE = 'demo-seed.json';

/** The WSDC events calendar's public address: the default of WCS_SCRAPER_URL. */
export const WSDC_CALENDAR_URL = 'https://www.worldsdc.com/events/';

/** An S3-compatible bucket (WCS_STORAGE=s3://bucket/prefix and the variables below). */
export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash ('' for none). */
  prefix: string;
  /**
   * The S3 server (WCS_S3_ENDPOINT, e.g. http://minio.internal:9000 for MinIO, Garage, Ceph,
   * R2...); unset: AWS S3 itself, found from the region.
   */
  endpoint: string | undefined;
  /** AWS_REGION (or AWS_DEFAULT_REGION), default us-east-1 (what most S3-compatible servers expect). */
  region: string;
  /**
   * Bucket in the path (http://host/bucket/key) instead of the host name (http://bucket.host/key)
   * (WCS_S3_FORCE_PATH_STYLE; default true when WCS_S3_ENDPOINT is set, false for AWS).
   */
  forcePathStyle: boolean;
  /**
   * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (both or neither; AWS_SESSION_TOKEN optional);
   * undefined: the SDK's own chain (~/.aws, an instance or container role).
   */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

/**
 * Where recordings and playlists are stored (WCS_STORAGE): `local` (the default: the folders
 * WCS_RECORDINGS_DIR and WCS_PLAYLISTS_DIR, which may be a mount shared by several processes) or
 * S3-compatible object storage. Library files are never here: they are the DJ's own folders, read
 * in place (docs/decisions.md).
 */
export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/**
 * Every environment variable the server reads, parsed once. Command-line flags override the
 * environment through `overrides`. Documented in README.md (keep the two in step).
 */
export interface Config {
  /** HTTP port (PORT, default 8080). */
  port: number;
  /**
   * Bind address (HOST, default 127.0.0.1: loopback only). `wcs serve --public` binds every
   * interface (0.0.0.0) with TLS.
   */
  host: string;
  /** `--public`: every interface, with TLS (a given certificate, else a self-signed one). */
  publicMode: boolean;
  /**
   * The name the server is reached by from other machines (WCS_PUBLIC_HOSTNAME or --hostname):
   * allowed as Host, printed in the URLs, and put in the self-signed certificate.
   */
  publicHostname: string | undefined;
  /**
   * Host names the server answers for (WCS_ALLOWED_HOSTS, comma-separated; default: localhost and
   * the public name). IP addresses are always allowed: a DNS-rebinding page cannot send one.
   * Any other Host gets 421 (docs/security.md).
   */
  allowedHosts: string[];
  /** TLS certificate and key files in PEM (WCS_TLS_CERT, WCS_TLS_KEY); both or neither. */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /**
   * Behind a reverse proxy (WCS_TRUST_PROXY=true): the client address and scheme come from its
   * X-Forwarded-For and X-Forwarded-Proto headers (docs/operations.md, "Behind a reverse proxy").
   */
  trustProxy: boolean;
  /** Data folder: embedded PostgreSQL, recordings, playlists (WCS_DATA_DIR, default ./data). */
  dataDir: string;
  /** A hosted PostgreSQL; when set, no embedded server is started (DATABASE_URL). */
  databaseUrl: string | undefined;
  /** Port of the embedded PostgreSQL (WCS_PG_PORT, default 0 = a free port picked at start). */
  embeddedPgPort: number;
  /**
   * Where uploaded recording chunks are stored (WCS_RECORDINGS_DIR, default <data>/recordings).
   * With S3 storage it holds only `.incoming/`, uploads on their way in and copies for ffmpeg.
   */
  recordingsDir: string;
  /** Where generated M3U8 playlists are written (WCS_PLAYLISTS_DIR, default <data>/playlists). */
  playlistsDir: string;
  /** Local folders (default) or S3-compatible object storage (WCS_STORAGE), see StorageSettings. */
  storage: StorageSettings;
  /**
   * Folders the API may import audio from (WCS_LIBRARY_ROOTS: absolute folders separated by
   * commas, default <data>/library). The `wcs library import` command may import any folder.
   */
  libraryRoots: string[];
  /** Largest accepted upload chunk in bytes (WCS_MAX_UPLOAD_MB, default 100). */
  maxUploadBytes: number;
  /** Built web app to serve at / (WCS_WEB_DIST, default apps/web/dist of this repository). */
  webDistDir: string;
  /** Fastify log level (LOG_LEVEL, default info; "silent" in tests). */
  logLevel: string;
  /**
   * Read-only setting shown in Settings (WCS_MAX_DOWNLOADS_PER_DAY, default 50): the most provider
   * tries the download worker may start in one calendar day (server time), all providers together;
   * each provider has its own daily cap in Settings too. Queueing is not capped, only starting.
   */
  maxDownloadsPerDay: number;
  /**
   * The inbox folder (WCS_INBOX_DIR, default <data>/inbox): audio files dropped there are imported
   * and matched to the download queue (services/downloads/inbox.ts).
   */
  inboxDir: string;
  /**
   * Where acquired files are kept (WCS_ACQUIRED_DIR, default <first library root>/acquired); it
   * must lie inside a library root, so the library import sees them as any other song's file.
   */
  acquiredDir: string;
  /**
   * The external download command (WCS_DOWNLOAD_COMMAND): a program and its arguments with
   * {artist}, {title}, {isrc} and {out} placeholders, split like a shell would split it but run
   * without one; null when not set (services/downloads/command.ts).
   */
  downloadCommand: string[] | null;
  /** Read-only setting shown in Settings (WCS_TOR_ENABLED, default false). */
  torEnabled: boolean;
  /** The events calendar the scraper reads (WCS_SCRAPER_URL, default the WSDC event list). */
  scraperUrl: string;
  /**
   * When the scraper runs by itself, as a cron expression in the server's time zone
   * (WCS_SCRAPER_SCHEDULE, default '0 4 * * 1': Mondays 04:00); null when set to 'off'.
   */
  scraperSchedule: string | null;
  /** How long one fetch of the calendar may take (WCS_SCRAPER_TIMEOUT_SECONDS, default 30). */
  scraperTimeoutMs: number;
  /**
   * Price of one song download in US dollars, for the download preview's cost estimate
   * (WCS_DOWNLOAD_PRICE_USD, default 0: most providers a DJ runs at home cost nothing per song).
   */
  downloadPriceUsd: number;
  /** The ffmpeg binary that decodes audio (FFMPEG_PATH, default `ffmpeg` on PATH). */
  ffmpegPath: string;
  /**
   * ACRCloud identification, for songs not in the library: ACRCLOUD_HOST (e.g.
   * identify-eu-west-1.acrcloud.com, or a full http(s) URL), ACRCLOUD_ACCESS_KEY and
   * ACRCLOUD_ACCESS_SECRET; null unless all three are set.
   */
  acrcloud: { host: string; accessKey: string; accessSecret: string } | null;
  /** AudD identification (AUDD_API_TOKEN; AUDD_URL, default https://api.audd.io/); null without a token. */
  audd: { apiToken: string; url: string } | null;
  /** Metadata lookups (MusicBrainz, iTunes, Spotify), see MetadataSettings. */
  metadata: MetadataSettings;
  /** Worker threads that analyse songs (WCS_ANALYSIS_WORKERS, default 1, at most 16). */
  analysisWorkers: number;
  /**
   * How long a client may take to send one whole request, upload body included
   * (WCS_REQUEST_TIMEOUT_SECONDS, default 300: a 100 MB chunk at 3 Mbit/s); then 408 and the
   * partial file is removed.
   */
  requestTimeoutMs: number;
  /**
   * How long one chunk's recognition job may stay active before the job queue takes it for
   * abandoned (its process killed) and runs it again (WCS_CHUNK_JOB_EXPIRE_SECONDS, default 300).
   * The queue looks for such jobs every 120 s, or every this many seconds when shorter.
   */
  chunkJobExpireSeconds: number;
  /**
   * How long a connection may stay silent, in the middle of a request or between two
   * (WCS_IDLE_TIMEOUT_SECONDS, default 30); then it is closed. Live sockets are not affected.
   */
  idleTimeoutMs: number;
  /** Open connections beyond which new ones are refused (WCS_MAX_CONNECTIONS, default 256). */
  maxConnections: number;
  /**
   * Event-loop delay above which requests get 503 with Retry-After instead of waiting
   * (WCS_MAX_EVENT_LOOP_DELAY_MS, default 2000; 0 turns the check off). The heap has its own bound:
   * 503 once 90% of Node's heap limit is in use.
   */
  maxEventLoopDelayMs: number;
  /**
   * Calls per minute and client of each operation that starts heavy work (regenerations,
   * re-analysis, scrapes, imports, reprocessing), beyond which it answers 429 with Retry-After
   * (WCS_RATE_LIMIT_PER_MINUTE, default 20).
   */
  expensiveCallsPerMinute: number;
}

/**
 * Where song metadata is looked up (docs/api.md, "Song metadata"). WCS_METADATA_LOOKUP: `auto`
 * (default: songs without a file are looked up in the background, any song on demand), `manual`
 * (on demand only) or `off` (never asks a service).
 */
export interface MetadataSettings {
  mode: 'auto' | 'manual' | 'off';
  /**
   * MUSICBRAINZ_URL (default https://musicbrainz.org/ws/2/); the User-Agent names the application
   * and, with WCS_MUSICBRAINZ_CONTACT (an e-mail or URL), who to reach, as MusicBrainz asks.
   */
  musicbrainz: { url: string; contact: string | null };
  /** ITUNES_URL (default https://itunes.apple.com/) and ITUNES_COUNTRY (store, default us). */
  itunes: { url: string; country: string };
  /**
   * Spotify's Web API with SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET (both, or null);
   * SPOTIFY_ACCOUNTS_URL and SPOTIFY_API_URL for another endpoint.
   */
  spotify: { clientId: string; clientSecret: string; accountsUrl: string; apiUrl: string } | null;
}

function metadataFrom(env: NodeJS.ProcessEnv): MetadataSettings {
  const mode = (env.WCS_METADATA_LOOKUP?.trim() || 'auto').toLowerCase();
  if (mode !== 'auto' && mode !== 'manual' && mode !== 'off') {
    throw new Error(`WCS_METADATA_LOOKUP must be auto, manual or off, got "${env.WCS_METADATA_LOOKUP}"`);
  }
  const contact = env.WCS_MUSICBRAINZ_CONTACT?.trim();
  const country = (env.ITUNES_COUNTRY?.trim() || 'us').toLowerCase();
  if (!/^[a-z]{2}$/.test(country)) throw new Error(`ITUNES_COUNTRY must be two letters, got "${country}"`);
  const clientId = env.SPOTIFY_CLIENT_ID?.trim();
  const clientSecret = env.SPOTIFY_CLIENT_SECRET?.trim();
  return {
    mode,
    musicbrainz: {
      url: urlFrom(env, 'MUSICBRAINZ_URL', 'https://musicbrainz.org/ws/2/'),
      contact: contact || null,
    },
    itunes: { url: urlFrom(env, 'ITUNES_URL', 'https://itunes.apple.com/'), country },
    spotify:
      clientId && clientSecret
        ? {
            clientId,
            clientSecret,
            accountsUrl: urlFrom(env, 'SPOTIFY_ACCOUNTS_URL', 'https://accounts.spotify.com/'),
            apiUrl: urlFrom(env, 'SPOTIFY_API_URL', 'https://api.spotify.com/'),
          }
        : null,
  };
}

export type ConfigOverrides = Partial<
  Pick<Config, 'port' | 'host' | 'dataDir' | 'databaseUrl' | 'logLevel' | 'publicMode' | 'publicHostname'>
>;

/** Host names that always reach this machine itself. */
const LOOPBACK_NAMES = ['localhost'];

function hostListFrom(env: NodeJS.ProcessEnv, publicHostname: string | undefined): string[] {
  const names = (env.WCS_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!/^[a-z0-9.*-]+$/.test(name)) {
      throw new Error(`WCS_ALLOWED_HOSTS holds host names separated by commas, got "${name}"`);
    }
  }
  return [
    ...new Set([...LOOPBACK_NAMES, ...(publicHostname ? [publicHostname.toLowerCase()] : []), ...names]),
  ];
}

function tlsFilesFrom(env: NodeJS.ProcessEnv): { cert: string | undefined; key: string | undefined } {
  const cert = env.WCS_TLS_CERT?.trim() || undefined;
  const key = env.WCS_TLS_KEY?.trim() || undefined;
  if (Boolean(cert) !== Boolean(key)) {
    throw new Error('WCS_TLS_CERT and WCS_TLS_KEY go together: set both (PEM files) or neither');
  }
  return { cert: cert && path.resolve(cert), key: key && path.resolve(key) };
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function numberFrom(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function boolFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** WCS_LIBRARY_ROOTS: absolute folders separated by commas; relative ones are refused, not guessed. */
function libraryRootsFrom(env: NodeJS.ProcessEnv, dataDir: string): string[] {
  const raw = env.WCS_LIBRARY_ROOTS;
  if (raw === undefined || raw.trim() === '') return [path.join(dataDir, 'library')];
  const roots = raw
    .split(',')
    .map((root) => root.trim())
    .filter((root) => root !== '');
  const relative = roots.filter((root) => !path.isAbsolute(root));
  if (relative.length > 0) {
    throw new Error(
      `WCS_LIBRARY_ROOTS must list absolute folders separated by commas; not absolute: ${relative.join(', ')}`,
    );
  }
  return [...new Set(roots.map((root) => path.resolve(root)))];
}

/** WCS_ACQUIRED_DIR: an absolute folder inside one of the library roots. */
function acquiredDirFrom(env: NodeJS.ProcessEnv, roots: readonly string[]): string {
  const raw = env.WCS_ACQUIRED_DIR?.trim();
  if (!raw) return path.join(roots[0]!, 'acquired');
  if (!path.isAbsolute(raw)) throw new Error(`WCS_ACQUIRED_DIR must be an absolute folder, got "${raw}"`);
  const folder = path.resolve(raw);
  const inside = roots.some((root) => {
    const relative = path.relative(root, folder);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
  if (!inside) {
    throw new Error(
      `WCS_ACQUIRED_DIR must lie inside one of the library roots (${roots.join(', ')}), got "${raw}"`,
    );
  }
  return folder;
}

/** The placeholders WCS_DOWNLOAD_COMMAND may use; each is replaced inside its own argument. */
export const DOWNLOAD_COMMAND_PLACEHOLDERS = ['{artist}', '{title}', '{isrc}', '{out}'] as const;

/**
 * WCS_DOWNLOAD_COMMAND split into a program and its arguments (shell-quote's parser: quotes and
 * backslashes as a shell reads them). Pipes, redirections, `;`, `&&`, globs and `$VARIABLES` are
 * refused: the command runs without a shell, so they would not mean what they seem to.
 */
function downloadCommandFrom(env: NodeJS.ProcessEnv): string[] | null {
  const raw = env.WCS_DOWNLOAD_COMMAND?.trim();
  if (!raw) return null;
  const words = parseShellWords(raw, (name) => {
    throw new Error(
      `WCS_DOWNLOAD_COMMAND must not use shell variables ($${name}); it runs without a shell. Use {artist}, {title}, {isrc} and {out}`,
    );
  });
  const argv: string[] = [];
  for (const word of words) {
    if (typeof word !== 'string') {
      throw new Error(
        `WCS_DOWNLOAD_COMMAND runs without a shell: pipes, redirections, ";", "&&" and globs are not allowed (found ${JSON.stringify(word)}); put them in a script and name the script`,
      );
    }
    argv.push(word);
  }
  if (argv.length === 0) return null;
  if (!argv.some((arg) => arg.includes('{out}'))) {
    throw new Error('WCS_DOWNLOAD_COMMAND must pass {out}, the folder the command writes its file into');
  }
  return argv;
}

function urlFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const protocol = URL.canParse(raw) ? new URL(raw).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new Error(`${name} must be an http or https address, got "${raw}"`);
  }
  return raw;
}

/** A cron expression, or null for 'off'; pg-boss checks the expression when it is scheduled. */
function scheduleFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  return raw.toLowerCase() === 'off' ? null : raw;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** WCS_STORAGE: unset or `local`, else `s3://bucket[/prefix]` with the S3 variables. */
function storageFrom(env: NodeJS.ProcessEnv): StorageSettings {
  const raw = env.WCS_STORAGE?.trim() ?? '';
  if (raw === '' || raw === 'local') return { kind: 'local' };
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
  if (!match || !BUCKET_NAME.test(match[1]!)) {
    throw new Error(
      `WCS_STORAGE must be "local" or s3://bucket/prefix (a bucket name of 3-63 lower-case letters, digits, dots and hyphens), got "${raw}"`,
    );
  }
  const segments = (match[2] ?? '').split('/').filter((segment) => segment !== '');
  const badSegment = segments.find((segment) => !PREFIX_SEGMENT.test(segment));
  if (badSegment !== undefined) {
    throw new Error(
      `WCS_STORAGE's prefix is made of names of letters, digits, '.', '_' and '-' separated by '/', got "${badSegment}"`,
    );
  }
  const endpoint = env.WCS_S3_ENDPOINT?.trim() ? urlFrom(env, 'WCS_S3_ENDPOINT', '') : undefined;
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim() || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both or neither');
  }
  const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: segments.join('/'),
    endpoint,
    region: env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1',
    forcePathStyle: boolFrom(env, 'WCS_S3_FORCE_PATH_STYLE', endpoint !== undefined),
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
        : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const dataDir = path.resolve(overrides.dataDir ?? env.WCS_DATA_DIR ?? 'data');
  const publicMode = overrides.publicMode ?? false;
  const publicHostname = overrides.publicHostname ?? (env.WCS_PUBLIC_HOSTNAME?.trim() || undefined);
  const tls = tlsFilesFrom(env);
  return {
    port: overrides.port ?? intFrom(env, 'PORT', 8080, 0, 65535),
    host: overrides.host ?? (publicMode ? '0.0.0.0' : (env.HOST ?? '127.0.0.1')),
    publicMode,
    publicHostname,
    allowedHosts: hostListFrom(env, publicHostname),
    tlsCertFile: tls.cert,
    tlsKeyFile: tls.key,
    trustProxy: boolFrom(env, 'WCS_TRUST_PROXY', false),
    dataDir,
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    embeddedPgPort: intFrom(env, 'WCS_PG_PORT', 0, 0, 65535),
    recordingsDir: path.resolve(env.WCS_RECORDINGS_DIR ?? path.join(dataDir, 'recordings')),
    playlistsDir: path.resolve(env.WCS_PLAYLISTS_DIR ?? path.join(dataDir, 'playlists')),
    storage: storageFrom(env),
    libraryRoots: libraryRootsFrom(env, dataDir),
    maxUploadBytes: intFrom(env, 'WCS_MAX_UPLOAD_MB', 100, 1, 4096) * 1024 * 1024,
    webDistDir: path.resolve(env.WCS_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
    maxDownloadsPerDay: intFrom(env, 'WCS_MAX_DOWNLOADS_PER_DAY', 50, 0, 100000),
    inboxDir: path.resolve(env.WCS_INBOX_DIR?.trim() || path.join(dataDir, 'inbox')),
    acquiredDir: acquiredDirFrom(env, libraryRootsFrom(env, dataDir)),
    downloadCommand: downloadCommandFrom(env),
    torEnabled: boolFrom(env, 'WCS_TOR_ENABLED', false),
    scraperUrl: urlFrom(env, 'WCS_SCRAPER_URL', WSDC_CALENDAR_URL),
    scraperSchedule: scheduleFrom(env, 'WCS_SCRAPER_SCHEDULE', '0 4 * * 1'),
    scraperTimeoutMs: intFrom(env, 'WCS_SCRAPER_TIMEOUT_SECONDS', 30, 1, 600) * 1000,
    downloadPriceUsd: numberFrom(env, 'WCS_DOWNLOAD_PRICE_USD', 0, 0, 1000),
    ffmpegPath: env.FFMPEG_PATH || 'ffmpeg',
    acrcloud:
      env.ACRCLOUD_HOST && env.ACRCLOUD_ACCESS_KEY && env.ACRCLOUD_ACCESS_SECRET
        ? {
            host: env.ACRCLOUD_HOST,
            accessKey: env.ACRCLOUD_ACCESS_KEY,
            accessSecret: env.ACRCLOUD_ACCESS_SECRET,
          }
        : null,
    audd: env.AUDD_API_TOKEN
      ? { apiToken: env.AUDD_API_TOKEN, url: urlFrom(env, 'AUDD_URL', 'https://api.audd.io/') }
      : null,
    metadata: metadataFrom(env),
    analysisWorkers: intFrom(env, 'WCS_ANALYSIS_WORKERS', 1, 1, 16),
    requestTimeoutMs: numberFrom(env, 'WCS_REQUEST_TIMEOUT_SECONDS', 300, 1, 86_400) * 1000,
    chunkJobExpireSeconds: intFrom(env, 'WCS_CHUNK_JOB_EXPIRE_SECONDS', 300, 1, 43_200),
    idleTimeoutMs: numberFrom(env, 'WCS_IDLE_TIMEOUT_SECONDS', 30, 0.1, 3600) * 1000,
    maxConnections: intFrom(env, 'WCS_MAX_CONNECTIONS', 256, 1, 100_000),
    maxEventLoopDelayMs: intFrom(env, 'WCS_MAX_EVENT_LOOP_DELAY_MS', 2000, 0, 600_000),
    expensiveCallsPerMinute: intFrom(env, 'WCS_RATE_LIMIT_PER_MINUTE', 20, 1, 100_000),
  };
}
