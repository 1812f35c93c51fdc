import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { DecodeError } from '../../audio/decode.js';
import { FINGERPRINT_VERSION, type FingerprintDeps, fingerprintSong } from '../../audio/fingerprint/index.js';
import { DEMO_VERSION_PREFIX, songs } from '../../db/schema.js';
import type { SongImportedHook } from './library-import.js';

/**
 * Which songs the recognition index holds, and when a song is (re)indexed: the rules around the
 * fingerprint engine (audio/fingerprint/), which itself only turns a file into hashes and peaks.
 */

/**
 * Indexes one song's file unless its fingerprints are current: a song without a file, or already
 * indexed by this engine version, is skipped; an undecodable file ends as songs.fingerprint_error
 * (written by the engine), not as an error.
 */
export async function fingerprintSongIfOutdated(
  deps: FingerprintDeps,
  songId: number,
): Promise<'fingerprinted' | 'skipped' | 'failed'> {
  const [song] = await deps.db
    .select({ filePath: songs.filePath, filePresent: songs.filePresent, version: songs.fingerprintVersion })
    .from(songs)
    .where(eq(songs.id, songId));
  if (!song?.filePresent || !song.filePath || song.version === FINGERPRINT_VERSION) return 'skipped';
  try {
    await fingerprintSong(deps, { songId, filePath: song.filePath });
    return 'fingerprinted';
  } catch (error) {
    if (error instanceof DecodeError) return 'failed';
    throw error;
  }
}

/**
 * Songs to (re)index: a file, no current fingerprints, no earlier failure, no job waiting, and not
 * a demo song (its file is a placeholder tone, not music anyone plays).
 */
export async function outdatedFingerprintSongs(deps: Pick<FingerprintDeps, 'db'>): Promise<number[]> {
  const rows = await deps.db
    .select({ id: songs.id })
    .from(songs)
    .where(
      and(
        eq(songs.filePresent, true),
        isNotNull(songs.filePath),
        isNull(songs.fingerprintError),
        sql`${songs.fingerprintVersion} is distinct from ${FINGERPRINT_VERSION}`,
        sql`coalesce(${songs.analysisVersion} not like ${`${DEMO_VERSION_PREFIX}%`}, true)`,
        sql`not exists (select 1 from pgboss.job j where j.name = 'song.fingerprint'
              and j.state in ('created', 'retry', 'active') and (j.data->>'song_id')::int = ${songs.id})`,
      ),
    )
    .orderBy(songs.id);
  return rows.map((row) => row.id);
}

/**
 * The library-import hook: indexes each imported song whose audio is new to the index (new songs,
 * changed content and attached files always; moved or restored files only when their fingerprints
 * are missing or of an older version).
 */
export function fingerprintImportHook(deps: FingerprintDeps): SongImportedHook {
  return async (song) => {
    if (song.change === 'moved' || song.change === 'restored') {
      const [row] = await deps.db
        .select({ version: songs.fingerprintVersion })
        .from(songs)
        .where(eq(songs.id, song.songId));
      if (row?.version === FINGERPRINT_VERSION) return;
    }
    await fingerprintSong(deps, { songId: song.songId, filePath: song.filePath });
  };
}
