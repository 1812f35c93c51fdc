/**
 * The index store: the `fingerprints` table of the app's PostgreSQL (embedded or hosted), so the
 * server and the CLI share it, writes are transactional (a crash leaves a song either fully
 * indexed or as before) and deleting a song deletes its rows (foreign key cascade). Rows go in as
 * arrays through unnest (one statement per 50,000 rows) and come out with one `hash = any($1)`
 * lookup per query, answered from the (hash, song_id, t) index alone.
 */
import type pg from 'pg';
import type { Db } from '../../db/client.js';

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
export type Postings = Map<number, number[]>;

/** All index entries of the given (distinct) hashes. */
export async function lookupHashes(db: Db, hashes: Iterable<number>): Promise<Postings> {
  const pool = poolOf(db);
  const list = [...hashes];
  const postings: Postings = new Map();
  for (let start = 0; start < list.length; start += LOOKUP_BATCH) {
    const batch = list.slice(start, start + LOOKUP_BATCH);
    const result = await pool.query<[number, number, number]>({
      text: 'select hash, song_id, t from fingerprints where hash = any($1::int[])',
      values: [arrayLiteral(batch)],
      rowMode: 'array',
    });
    for (const [hash, songId, t] of result.rows) {
      let list2 = postings.get(hash);
      if (!list2) {
        list2 = [];
        postings.set(hash, list2);
      }
      list2.push(songId, t);
    }
  }
  return postings;
}
