/**
 * The index store: the `fingerprints` table of the app's PostgreSQL (embedded or hosted), so the
 * server and the CLI share it, writes are transactional (a crash leaves a song either fully
 * indexed or as before) and deleting a song deletes its rows (foreign key cascade). Rows go in as
 * arrays through unnest (one statement per 50,000 rows) and come out with one `hash = any($1)`
 * lookup per query, answered from the (hash, song_id, t) index alone. Each song's peaks (8 bytes
 * each, about 90 per second) are one `fingerprint_peaks` row, read for the candidates to verify.
 */
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import type { Peaks } from './peaks.js';

const INSERT_BATCH = 50_000;
const LOOKUP_BATCH = 40_000;

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
  hashes: { hash: Int32Array; t: Int32Array; count: number },
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
    await client.query('delete from fingerprints where song_id = $1', [songId]);
    for (let start = 0; start < hashes.count; start += INSERT_BATCH) {
      const end = Math.min(hashes.count, start + INSERT_BATCH);
      await client.query(
        'insert into fingerprints (hash, song_id, t) select h, $2, t from unnest($1::int[], $3::int[]) as u(h, t)',
        [arrayLiteral(hashes.hash.subarray(start, end)), songId, arrayLiteral(hashes.t.subarray(start, end))],
      );
    }
    await client.query(
      `insert into fingerprint_peaks (song_id, peaks) values ($1, $2)
         on conflict (song_id) do update set peaks = excluded.peaks`,
      [songId, encodePeaks(peaks)],
    );
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
    await client.query('delete from fingerprints where song_id = $1', [songId]);
    await client.query('delete from fingerprint_peaks where song_id = $1', [songId]);
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

/** Postings of each hash: flat [songId, t, songId, t, ...]. */
export type Postings = Map<number, ArrayLike<number>>;

/**
 * All index entries of the given (distinct) hashes. PostgreSQL packs each hash's entries into one
 * bytea (big-endian song id and frame), so a lookup that touches a million entries returns a few
 * thousand rows instead of a million.
 */
export async function lookupHashes(db: Db, hashes: Iterable<number>): Promise<Postings> {
  const pool = poolOf(db);
  const list = [...hashes];
  const postings: Postings = new Map();
  for (let start = 0; start < list.length; start += LOOKUP_BATCH) {
    const batch = list.slice(start, start + LOOKUP_BATCH);
    const result = await pool.query<[number, Buffer]>({
      text: `select hash, string_agg(int4send(song_id) || int4send(t), ''::bytea) from fingerprints
             where hash = any($1::int[]) group by hash`,
      values: [arrayLiteral(batch)],
      rowMode: 'array',
    });
    for (const [hash, packed] of result.rows) {
      const entries = new Int32Array(packed.length >> 2);
      for (let i = 0; i < entries.length; i++) entries[i] = packed.readInt32BE(i * 4);
      postings.set(hash, entries);
    }
  }
  return postings;
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
    'select song_id, peaks from fingerprint_peaks where song_id = any($1::int[])',
    [arrayLiteral(songIds)],
  );
  for (const row of rows) found.set(row.song_id, decodePeaks(row.peaks));
  return found;
}
