import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { summaryRows } from './play-summary.js';

/**
 * `song_window_plays` (plays per song and time window, '' for plays outside the windows; kept
 * exact by triggers on plays, see migration song_window_plays_triggers) is what the play summary
 * (play-summary.ts) is folded from. A call filtered to one event, social or song reads plays,
 * which neither summary splits by.
 */

/** The summary's key for plays outside the time windows (plays.time_window is null). */
export const NO_WINDOW = '';

/** Number of plays stored, from the play summary (play-summary.ts): 0 when there are none. */
export async function totalPlayCount(db: Db): Promise<number> {
  const { rows } = await db.execute<{ plays: number }>(
    sql`select coalesce(sum(plays), 0)::int8 as plays from ${summaryRows}`,
  );
  return rows[0]?.plays ?? 0;
}
