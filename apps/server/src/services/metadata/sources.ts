/**
 * Song.sources: every writer of a song's value records where it came from, in
 * `songs.field_sources` under the contract's field name. These helpers build that record for an
 * insert, and the SQL that merges it into the stored one for an update.
 */
import type { SongValueSource } from '@wcs/contract';
import { type SQL, sql } from 'drizzle-orm';
import { songs } from '../../db/schema.js';

/** The fields of `values` that hold something (not null or undefined), each with `source`. */
export function sourcesOf(
  values: Record<string, unknown>,
  source: SongValueSource,
): Record<string, SongValueSource> {
  const out: Record<string, SongValueSource> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value !== null && value !== undefined) out[field] = source;
  }
  return out;
}

/** `field_sources` with `entries` merged in (for `.set({ fieldSources: mergeSources(...) })`). */
export function mergeSources(entries: Record<string, SongValueSource>): SQL {
  return sql`${songs.fieldSources} || ${JSON.stringify(entries)}::jsonb`;
}

/** `field_sources` with `entries` merged in and the `cleared` fields removed (a value cleared has no source). */
export function replaceSources(entries: Record<string, SongValueSource>, cleared: string[]): SQL {
  // An array parameter would be spread into a list by drizzle: sent as PostgreSQL's array text.
  const names = `{${cleared.map((field) => JSON.stringify(field)).join(',')}}`;
  return sql`(${songs.fieldSources} - ${names}::text[]) || ${JSON.stringify(entries)}::jsonb`;
}
