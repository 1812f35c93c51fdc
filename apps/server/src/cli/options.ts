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

/** Only the flags that were given, so the environment and the defaults fill in the rest. */
export function overridesFrom(options: DataDirOptions & { port?: number; host?: string }): ConfigOverrides {
  const overrides: ConfigOverrides = {};
  if (options.dataDir !== undefined) overrides.dataDir = options.dataDir;
  if (options.port !== undefined) overrides.port = options.port;
  if (options.host !== undefined) overrides.host = options.host;
  return overrides;
}
