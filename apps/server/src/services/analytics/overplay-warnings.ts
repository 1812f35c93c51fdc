import { OVERPLAY, type OverplaySeverity, type OverplayWarning } from '@wcs/contract';
import { asc, desc, gte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { localDate } from '../age.js';
import { songWithPlayCount, toSong } from '../songs.js';

/** Severity of an overplay score (0-100): critical at 90 or more, high at 80 or more, else warning. */
export function overplaySeverity(score: number): OverplaySeverity {
  if (score >= OVERPLAY.criticalAt) return 'critical';
  if (score >= OVERPLAY.highAt) return 'high';
  return 'warning';
}

/**
 * The Overplay Monitor's warning list: songs whose overplay score reaches `threshold` (the view
 * slider, not the per-age thresholds of the settings), highest score first (ties by title, then
 * id), at most `limit`; `total` counts every song at or above the threshold. Served by the index
 * on overplay_score.
 */
export async function getOverplayWarnings(
  db: Db,
  query: { threshold: number; limit: number },
): Promise<{ data: OverplayWarning[]; total: number }> {
  const today = localDate();
  const where = gte(songs.overplayScore, query.threshold);
  const [rows, total] = await Promise.all([
    db
      .select(songWithPlayCount)
      .from(songs)
      .where(where)
      .orderBy(desc(songs.overplayScore), asc(songs.title), asc(songs.id))
      .limit(query.limit),
    db.$count(songs, where),
  ]);
  const data = rows.map(({ song, playCount }) => ({
    ...toSong(song, playCount, today),
    severity: overplaySeverity(song.overplayScore),
  }));
  return { data, total };
}
