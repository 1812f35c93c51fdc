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

/**
 * The blobs hold two columns of `count` 32-bit values, one after the other, in the machine's byte
 * order, copied in and out of typed arrays whole (a library's hashes load at memory speed).
 * PostgreSQL stores the bytes as they are: a data folder moves only between little-endian
 * machines (x86-64, ARM), which is what Node.js runs on here.
 */
if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  throw new Error('The fingerprint store expects a little-endian processor.');
}

type Column = Int32Array | Float32Array;

function packColumns(first: Column, second: Column, count: number): Buffer {
  const buffer = Buffer.alloc(count * 8);
  buffer.set(new Uint8Array(first.buffer, first.byteOffset, count * 4), 0);
  buffer.set(new Uint8Array(second.buffer, second.byteOffset, count * 4), count * 4);
  return buffer;
}

/** The bytes [from, from + length) of a buffer in an ArrayBuffer of their own (aligned for a typed array). */
const copyOut = (buffer: Buffer, from: number, length: number): ArrayBuffer =>
  buffer.buffer.slice(buffer.byteOffset + from, buffer.byteOffset + from + length) as ArrayBuffer;

/** A song's hashes as stored: the hashes (int32) then the anchor frames (int32). */
export const encodeHashes = (hashes: Hashes): Buffer => packColumns(hashes.hash, hashes.t, hashes.count);

export function decodeHashes(buffer: Buffer): Hashes {
  const count = buffer.length >> 3;
  return {
    hash: new Int32Array(copyOut(buffer, 0, count * 4)),
    t: new Int32Array(copyOut(buffer, count * 4, count * 4)),
    count,
  };
}

/** A song's peaks as stored: the frames (int32) then the log-frequencies (float32). */
export const encodePeaks = (peaks: Pick<Peaks, 't' | 'f' | 'count'>): Buffer =>
  packColumns(peaks.t, peaks.f, peaks.count);

export function decodePeaks(buffer: Buffer): Pick<Peaks, 't' | 'f' | 'count'> {
  const count = buffer.length >> 3;
  return {
    t: new Int32Array(copyOut(buffer, 0, count * 4)),
    f: new Float32Array(copyOut(buffer, count * 4, count * 4)),
    count,
  };
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
