import { InvalidArgumentError, Option } from 'commander';
import type { ConfigOverrides } from '../config.js';

/** Options every command that touches the database shares. */
export interface DataDirOptions {
  dataDir?: string;
}

/** `--data-dir`: wins over WCS_DATA_DIR; DATABASE_URL, when set, replaces the embedded database. */
export function dataDirOption(): Option {
  return new Option(
    '--data-dir <dir>',
    'data folder: embedded PostgreSQL, recordings, playlists (default: $WCS_DATA_DIR or ./data)',
  );
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('must be a port number from 0 to 65535.');
  }
  return port;
}

/** A host name as it goes in a URL, a certificate and the Host allow-list (`--hostname`). */
export function parseHostname(value: string): string {
  const name = value.trim().toLowerCase();
  if (
    !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(name)
  ) {
    throw new InvalidArgumentError(
      'must be a host name such as dj.local or music.example.org (letters, digits, dots and hyphens; no scheme or port).',
    );
  }
  return name;
}

/** Only the flags that were given, so the environment and the defaults fill in the rest. */
export function overridesFrom(
  options: DataDirOptions & { port?: number; host?: string; public?: boolean; hostname?: string },
): ConfigOverrides {
  const overrides: ConfigOverrides = {};
  if (options.dataDir !== undefined) overrides.dataDir = options.dataDir;
  if (options.port !== undefined) overrides.port = options.port;
  if (options.host !== undefined) overrides.host = options.host;
  if (options.public !== undefined) overrides.publicMode = options.public;
  if (options.hostname !== undefined) overrides.publicHostname = options.hostname;
  return overrides;
}
