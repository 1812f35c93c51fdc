/**
 * The cloud step of recognition: a stretch of a recording our own index did not recognise is cut
 * into a short clip (ffmpeg, 16 kHz mono WAV, about 12 s from its middle) and sent to the
 * configured providers in turn. A song they name is found in the library (by ISRC, provider id,
 * or title and artist folded alike) or created without a file, so it reaches the download queue.
 * Provider failures come back as text for the recording, never as exceptions.
 */
import { sql } from 'drizzle-orm';
import { runProgramCollect } from '../../audio/spawn-helper.js';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import {
  type CloudMatch,
  type CloudRecognizer,
  CloudRecognizerError,
} from '../../providers/cloud-recognizer.js';
import { songSearchKey } from '../../text.js';
import { mapGenre } from '../library/genre-map.js';
import { releaseDateFromTags } from '../library/library-tags.js';
import { sourcesOf } from '../metadata/sources.js';

/** A stretch shorter than this is a transition or a pause, not a song worth a request. */
export const CLOUD_MIN_STRETCH_SECONDS = 20;
/** Length of the clip sent (providers suggest 10-15 s). */
export const CLOUD_CLIP_SECONDS = 12;
/** Below this RMS (about -50 dBFS) a stretch is silence: nothing to ask about. */
export const SILENCE_RMS = 0.003;

export function rms(samples: Float32Array, from = 0, to = samples.length): number {
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(samples.length, Math.floor(to));
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i += 1) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / (end - start));
}

/** Cuts [startSeconds, +seconds) of an audio file into a 16 kHz mono WAV with ffmpeg. */
export async function cutClip(
  ffmpegPath: string,
  file: string,
  startSeconds: number,
  seconds: number,
): Promise<Buffer> {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-ss', startSeconds.toFixed(3), '-i', file];
  args.push('-t', String(seconds), '-vn', '-ac', '1', '-ar', '16000', '-f', 'wav', 'pipe:1');
  const { code, stdout, stderr } = await runProgramCollect(ffmpegPath, args);
  if (code === 0) return stdout;
  throw new Error(`ffmpeg could not cut a clip: ${stderr.trim().split('\n').pop() ?? code}`);
}

export interface CloudOutcome {
  match: CloudMatch | null;
  /** Provider failures, one line each (the other providers were still asked). */
  errors: string[];
}

/** Asks each provider in turn until one names the clip. */
export async function identifyClip(
  recognizers: readonly CloudRecognizer[],
  clip: Buffer,
): Promise<CloudOutcome> {
  const errors: string[] = [];
  for (const recognizer of recognizers) {
    try {
      const match = await recognizer.identify({
        bytes: clip,
        filename: 'clip.wav',
        contentType: 'audio/wav',
      });
      if (match) return { match, errors };
    } catch (error) {
      errors.push(
        error instanceof CloudRecognizerError
          ? error.message
          : `${recognizer.name}: ${(error as Error).message}`,
      );
    }
  }
  return { match: null, errors };
}

/**
 * The song a provider named: an existing song with the same ISRC or provider id, else one with
 * the same folded title and artist, else a new song without a file. Its external ids are added.
 * One transaction with an advisory lock on the name, so two jobs never create it twice.
 */
export async function songForMatch(
  db: Db,
  match: CloudMatch,
  onCreated?: (songId: number) => Promise<void>,
): Promise<number> {
  const searchKey = songSearchKey(match.title, match.artist);
  const ids: Record<string, string> = {};
  if (match.isrc) ids.isrc = match.isrc.toUpperCase();
  if (match.providerId) ids[match.provider] = match.providerId;
  return db
    .transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wcs-song:${searchKey}`}))`);
      const found = await tx.execute<{ id: number }>(sql`
      select id from ${songs}
      where (${ids.isrc ?? null}::text is not null and upper(external_ids->>'isrc') = ${ids.isrc ?? null})
         or (${match.providerId}::text is not null and external_ids->>${match.provider} = ${match.providerId})
         or search_key = ${searchKey}
      order by
        (${ids.isrc ?? null}::text is not null and upper(external_ids->>'isrc') = ${ids.isrc ?? null}) desc,
        (external_ids->>${match.provider} = ${match.providerId}) desc nulls last,
        file_present desc, id
      limit 1`);
      const existing = found.rows[0];
      if (existing) {
        await tx.execute(sql`
        update ${songs} set external_ids = coalesce(external_ids, '{}'::jsonb) || ${JSON.stringify(ids)}::jsonb,
          isrc = coalesce(isrc, ${ids.isrc ?? null}::text)
        where id = ${existing.id}`);
        return { id: Number(existing.id), created: false };
      }
      const genre = mapGenre(match.genres);
      const releaseDate = releaseDateFromTags(match.releaseDate ?? undefined, undefined);
      const [created] = await tx
        .insert(songs)
        .values({
          title: match.title,
          artist: match.artist,
          album: match.album,
          genre,
          releaseDate,
          searchKey,
          externalIds: ids,
          isrc: ids.isrc ?? null,
          fieldSources: sourcesOf(
            {
              title: match.title,
              artist: match.artist,
              album: match.album,
              genre,
              release_date: releaseDate,
              isrc: ids.isrc,
            },
            match.provider,
          ),
          filePresent: false,
        })
        .returning({ id: songs.id });
      return { id: created!.id, created: true };
    })
    .then(async (outcome) => {
      // After the commit: a job sent inside the transaction could run before the song exists.
      if (outcome.created && onCreated) await onCreated(outcome.id);
      return outcome.id;
    });
}
