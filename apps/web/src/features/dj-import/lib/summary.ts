import type { InteropResult, InteropSession } from '@wcs/contract';

/**
 * The words the import page puts on a preview or an import (the server's InteropResult): what
 * matched how, what is (or would be) added, and what is left out and why.
 */

/** '1 play', '3 plays', '0 new songs'. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** 'a, b and c'. */
function joined(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export interface CountLine {
  label: string;
  count: number;
}

/** How the file's tracks found their songs, in the order the server tries the rules. */
export function matchLines(result: InteropResult): CountLine[] {
  const counts = result.match_counts;
  return [
    { label: 'By file path', count: counts.path },
    { label: 'By content (file hash)', count: counts.content_hash },
    { label: 'By artist and title', count: counts.name },
    { label: 'By listening to the file (fingerprint)', count: counts.fingerprint },
    { label: 'New songs without a file', count: counts.new_song },
    { label: 'Not matched (no song made)', count: counts.unmatched },
  ];
}

const SKIP_LABELS: Readonly<Record<keyof InteropResult['plays_skipped'], string>> = {
  already_imported: 'imported from this file before',
  already_held: 'already held by a play of the same song that night',
  no_event: 'in sessions no event holds',
  no_time: 'in sessions with neither times nor a date',
  no_song: 'whose track became no song',
};

/** The plays left out, by reason, only the reasons that occur. */
export function skippedLines(result: InteropResult): CountLine[] {
  return (Object.keys(SKIP_LABELS) as (keyof typeof SKIP_LABELS)[])
    .filter((reason) => result.plays_skipped[reason] > 0)
    .map((reason) => ({ label: SKIP_LABELS[reason], count: result.plays_skipped[reason] }));
}

/** True when the import adds nothing at all: no play, song, event, BPM or key. */
export function addsNothing(result: InteropResult): boolean {
  return (
    result.plays === 0 &&
    result.new_songs === 0 &&
    result.bpm_filled === 0 &&
    result.key_filled === 0 &&
    result.events_created.length === 0 &&
    !result.sessions.some((session) => session.new_event && session.plays > 0)
  );
}

/** The events a result makes (an import) or would make (a preview: one per night, by name). */
function newEventCount(result: InteropResult): number {
  if (!result.dry_run) return result.events_created.length;
  return new Set(result.sessions.filter((s) => s.new_event && s.plays > 0).map((s) => s.event_name)).size;
}

/**
 * One sentence of what the import adds (or, for a preview, would add): "Imported: 12 plays, 3 new
 * songs without a file and 1 new event." A second import of the same file says that it adds
 * nothing, and why.
 */
export function outcomeSentence(result: InteropResult): string {
  if (addsNothing(result)) {
    const again = result.plays_skipped.already_imported > 0;
    const why = again
      ? 'this file was imported before: its plays are in the library and its tracks have their songs.'
      : result.tracks === 0
        ? 'the file holds no tracks.'
        : 'every track already has its song and there is no history to add.';
    return `${result.dry_run ? 'Importing would add nothing' : 'Nothing was added'}: ${why}`;
  }
  const parts = [
    countOf(result.plays, 'play'),
    countOf(result.new_songs, 'new song without a file', 'new songs without a file'),
  ];
  const events = newEventCount(result);
  if (events > 0) parts.push(countOf(events, 'new event'));
  const filled: string[] = [];
  if (result.bpm_filled > 0) filled.push(countOf(result.bpm_filled, 'BPM value'));
  if (result.key_filled > 0) filled.push(countOf(result.key_filled, 'key'));
  const fill = filled.length > 0 ? `; ${joined(filled)} filled where the song had none` : '';
  return `${result.dry_run ? 'The import would add' : 'Imported'} ${joined(parts)}${fill}.`;
}

/** Where a session's plays go, as the sessions table says it. */
export function sessionEventText(session: InteropSession): string {
  if (!session.selected) return 'Not chosen';
  if (session.event_name) return session.new_event ? `New event: ${session.event_name}` : session.event_name;
  return session.skipped_reason ? `None: ${session.skipped_reason}` : 'None';
}
