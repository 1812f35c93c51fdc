import { fingerprintSong } from '../audio/fingerprint/index.js';
import type { Db } from '../db/client.js';
import { songs } from '../db/schema.js';
import { songSearchKey } from '../text.js';

/**
 * A library song with its file, in the recognition index: what the recognition tests (in one app,
 * on S3 storage, across processes) start from. The file must exist (e.g. from writeWav).
 */
export async function addFingerprintedSong(
  db: Db,
  song: { file: string; title: string; artist?: string },
  ffmpegPath = 'ffmpeg',
): Promise<number> {
  const artist = song.artist ?? 'Synth Band';
  const [row] = await db
    .insert(songs)
    .values({
      title: song.title,
      artist,
      searchKey: songSearchKey(song.title, artist),
      filePath: song.file,
      filePresent: true,
    })
    .returning({ id: songs.id });
  await fingerprintSong({ db, config: { ffmpegPath } }, { songId: row!.id, filePath: song.file });
  return row!.id;
}
