import path from 'node:path';

/**
 * Every environment variable the server reads, parsed once. Command-line flags override the
 * environment through `overrides`. Documented in README.md (keep the two in step).
 */
export interface Config {
  /** HTTP port (PORT, default 8080). */
  port: number;
  /** HTTP bind address (HOST, default 127.0.0.1: loopback only, as there is no login yet). */
  host: string;
  /** Data folder: embedded PostgreSQL, recordings, playlists (WCS_DATA_DIR, default ./data). */
  dataDir: string;
  /** A hosted PostgreSQL; when set, no embedded server is started (DATABASE_URL). */
  databaseUrl: string | undefined;
  /** Port of the embedded PostgreSQL (WCS_PG_PORT, default 0 = a free port picked at start). */
  embeddedPgPort: number;
  /** Where uploaded recording chunks are stored (WCS_RECORDINGS_DIR, default <data>/recordings). */
  recordingsDir: string;
  /** Where generated M3U8 playlists are written (WCS_PLAYLISTS_DIR, default <data>/playlists). */
  playlistsDir: string;
  /** Largest accepted upload chunk in bytes (WCS_MAX_UPLOAD_MB, default 100). */
  maxUploadBytes: number;
  /** Built web app to serve at / (WCS_WEB_DIST, default apps/web/dist of this repository). */
  webDistDir: string;
  /** Fastify log level (LOG_LEVEL, default info; "silent" in tests). */
  logLevel: string;
  /** Read-only setting shown in Settings (WCS_MAX_DOWNLOADS_PER_DAY, default 50). */
  maxDownloadsPerDay: number;
  /** Read-only setting shown in Settings (WCS_TOR_ENABLED, default false). */
  torEnabled: boolean;
}

export type ConfigOverrides = Partial<Pick<Config, 'port' | 'host' | 'dataDir' | 'databaseUrl' | 'logLevel'>>;

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

function boolFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const dataDir = path.resolve(overrides.dataDir ?? env.WCS_DATA_DIR ?? 'data');
  return {
    port: overrides.port ?? intFrom(env, 'PORT', 8080, 0, 65535),
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    embeddedPgPort: intFrom(env, 'WCS_PG_PORT', 0, 0, 65535),
    recordingsDir: path.resolve(env.WCS_RECORDINGS_DIR ?? path.join(dataDir, 'recordings')),
    playlistsDir: path.resolve(env.WCS_PLAYLISTS_DIR ?? path.join(dataDir, 'playlists')),
    maxUploadBytes: intFrom(env, 'WCS_MAX_UPLOAD_MB', 100, 1, 4096) * 1024 * 1024,
    webDistDir: path.resolve(env.WCS_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
    maxDownloadsPerDay: intFrom(env, 'WCS_MAX_DOWNLOADS_PER_DAY', 50, 0, 100000),
    torEnabled: boolFrom(env, 'WCS_TOR_ENABLED', false),
  };
}
