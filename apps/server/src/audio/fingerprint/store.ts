/**
 * The index store: one `song_fingerprints` row per indexed song in the app's PostgreSQL (embedded
 * or hosted), so the server and the CLI share it, a write is transactional (a crash leaves a song
 * either fully indexed or as before) and deleting a song deletes its row (foreign key cascade).
 * The row holds the song's pair hashes with their anchor frames and its peaks, each as one packed
 * blob; a recognising process reads the hashes into an inverted index in memory
 * (memory-index.ts) and reads a song's peaks when a query proposes that song.
 */
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import type { Hashes } from './hashes.js';
import type { Peaks } from './peaks.js';

export function poolOf(db: Db): pg.Pool {
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!pool) throw new Error('the database handle has no pg pool');
  return pool;
}

const arrayLiteral = (values: ArrayLike<number>): string => `{${Array.prototype.join.call(values, ',')}}`;

/**
 * Replaces a song's fingerprints and marks it indexed with `version`, in one transaction.
 * Returns false (and changes nothing) when the song no longer exists.
 */
export async function replaceSongFingerprints(
  db: Db,
  songId: number,
  hashes: Hashes,
  peaks: Pick<Peaks, 't' | 'f' | 'count'>,
  version: string,
): Promise<boolean> {
  const client = await poolOf(db).connect();
  try {
    await client.query('begin');
    // Locks the song row: a concurrent delete or re-index of the same song waits for us.
    const found = await client.query('select id from songs where id = $1 for update', [songId]);
    if (found.rowCount === 0) {
      await client.query('rollback');
      return false;
    }
    // Delete and insert (not update): the row takes a new revision, which is what tells every
    // process's in-memory index to reload this song.
    await client.query('delete from song_fingerprints where song_id = $1', [songId]);
    await client.query('insert into song_fingerprints (song_id, hashes, peaks) values ($1, $2, $3)', [
      songId,
      encodeHashes(hashes),
      encodePeaks(peaks),
    ]);
    await client.query(
      `update songs set fingerprinted_at = now(), fingerprint_version = $2, fingerprint_error = null,
         updated_at = now() where id = $1`,
      [songId, version],
    );
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Records why a song could not be indexed (its old fingerprints, if any, are removed). */
export async function markFingerprintError(db: Db, songId: number, reason: string): Promise<void> {
  const client = await poolOf(db).connect();
  try {
    await client.query('begin');
    await client.query('delete from song_fingerprints where song_id = $1', [songId]);
    await client.query(
      `update songs set fingerprint_error = $2, fingerprinted_at = null, fingerprint_version = null,
         updated_at = now() where id = $1`,
      [songId, reason],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A song's hashes as stored: the hashes (int32) then the anchor frames (int32), little-endian. */
export function encodeHashes(hashes: Hashes): Buffer {
  const buffer = Buffer.alloc(hashes.count * 8);
  for (let i = 0; i < hashes.count; i++) {
    buffer.writeInt32LE(hashes.hash[i]!, i * 4);
    buffer.writeInt32LE(hashes.t[i]!, (hashes.count + i) * 4);
  }
  return buffer;
}

export function decodeHashes(buffer: Buffer): Hashes {
  const count = buffer.length >> 3;
  const hash = new Int32Array(count);
  const t = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    hash[i] = buffer.readInt32LE(i * 4);
    t[i] = buffer.readInt32LE((count + i) * 4);
  }
  return { hash, t, count };
}

/** A song's peaks as stored: the frames (int32) then the log-frequencies (float32), little-endian. */
export function encodePeaks(peaks: Pick<Peaks, 't' | 'f' | 'count'>): Buffer {
  const buffer = Buffer.alloc(peaks.count * 8);
  for (let i = 0; i < peaks.count; i++) {
    buffer.writeInt32LE(peaks.t[i]!, i * 4);
    buffer.writeFloatLE(peaks.f[i]!, (peaks.count + i) * 4);
  }
  return buffer;
}

export function decodePeaks(buffer: Buffer): Pick<Peaks, 't' | 'f' | 'count'> {
  const count = buffer.length >> 3;
  const t = new Int32Array(count);
  const f = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    t[i] = buffer.readInt32LE(i * 4);
    f[i] = buffer.readFloatLE((count + i) * 4);
  }
  return { t, f, count };
}

/** The stored peaks of the given songs (songs without any are absent from the map). */
export async function loadSongPeaks(
  db: Db,
  songIds: readonly number[],
): Promise<Map<number, Pick<Peaks, 't' | 'f' | 'count'>>> {
  const found = new Map<number, Pick<Peaks, 't' | 'f' | 'count'>>();
  if (songIds.length === 0) return found;
  const { rows } = await poolOf(db).query<{ song_id: number; peaks: Buffer }>(
    'select song_id, peaks from song_fingerprints where song_id = any($1::int[])',
    [arrayLiteral(songIds)],
  );
  for (const row of rows) found.set(row.song_id, decodePeaks(row.peaks));
  return found;
}
