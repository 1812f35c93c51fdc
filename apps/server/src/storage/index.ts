import path from 'node:path';
import type { Config, StorageSettings } from '../config.js';
import { LocalStorage, STAGING_DIR } from './local.js';
import type { Storage } from './storage.js';

export { fsyncDir, insideRoot, LocalStorage, STAGING_DIR } from './local.js';
export * from './storage.js';

/** What the server stores, one store each. */
export type StorageArea = 'recordings' | 'playlists';

export interface Stores {
  /** Recording chunks: `<recording_id>/<chunk>-<sha256 prefix>.<container>`. */
  recordings: Storage;
  /** Generated M3U8 files: `<file name>.m3u8`. */
  playlists: Storage;
}

const LOCAL: StorageSettings = { kind: 'local' };

/**
 * The store of one area: the local folder `folder`, or the area's prefix in the S3 bucket, which
 * then uses `<folder>/.incoming` only for files on their way in or out. The S3 SDK is loaded only
 * when S3 is configured.
 */
export async function openStorage(
  area: StorageArea,
  folder: string,
  settings: StorageSettings = LOCAL,
): Promise<Storage> {
  if (settings.kind === 'local') return new LocalStorage(folder);
  const { S3Storage } = await import('./s3.js');
  return new S3Storage(settings, area, path.join(path.resolve(folder), STAGING_DIR));
}

/** The stores of a configuration (WCS_STORAGE, WCS_RECORDINGS_DIR, WCS_PLAYLISTS_DIR). */
export async function openStores(
  config: Pick<Config, 'storage' | 'recordingsDir' | 'playlistsDir'>,
): Promise<Stores> {
  return {
    recordings: await openStorage('recordings', config.recordingsDir, config.storage),
    playlists: await openStorage('playlists', config.playlistsDir, config.storage),
  };
}
