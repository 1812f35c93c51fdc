import type { AppDeps } from '../deps.js';
import { regenerateAllPlaylists } from '../services/playlists/playlists.js';

/**
 * 'playlists.regenerate': regenerates every playlist and its M3U8 file. Safe to re-run: playlists
 * are upserted by group and files replaced atomically.
 */
export async function regeneratePlaylistsJob(deps: AppDeps): Promise<void> {
  await regenerateAllPlaylists(deps.db, deps.config);
}
