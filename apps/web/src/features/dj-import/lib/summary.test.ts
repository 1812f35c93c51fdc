import type { InteropResult, InteropSession } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { addsNothing, countOf, matchLines, outcomeSentence, sessionEventText, skippedLines } from './summary';

const session = (fields: Partial<InteropSession> = {}): InteropSession => ({
  index: 0,
  name: 'HISTORY 2024-05-03',
  date: '2024-05-03',
  started_at: null,
  entries: 3,
  estimated_times: true,
  selected: true,
  event_id: null,
  event_name: 'HISTORY 2024-05-03 (rekordbox)',
  new_event: true,
  plays: 3,
  skipped: 0,
  skipped_reason: null,
  ...fields,
});

const result = (fields: Partial<InteropResult> = {}): InteropResult => ({
  dry_run: true,
  format: 'rekordbox-xml',
  tracks: 3,
  matched: 0,
  new_songs: 3,
  playlists: 0,
  history_sessions: 1,
  plays: 3,
  files: [{ name: 'rekordbox.xml', format: 'rekordbox-xml' }],
  match_counts: { path: 0, content_hash: 0, name: 0, fingerprint: 0, new_song: 3, unmatched: 0 },
  bpm_filled: 0,
  key_filled: 0,
  plays_skipped: { already_imported: 0, already_held: 0, no_event: 0, no_time: 0, no_song: 0 },
  sessions: [session()],
  events_created: [],
  track_matches: [],
  warnings: [],
  ...fields,
});

/** What a second import of the same file answers. */
const again = (dryRun: boolean) =>
  result({
    dry_run: dryRun,
    matched: 3,
    new_songs: 0,
    plays: 0,
    match_counts: { path: 0, content_hash: 0, name: 3, fingerprint: 0, new_song: 0, unmatched: 0 },
    plays_skipped: { already_imported: 3, already_held: 0, no_event: 0, no_time: 0, no_song: 0 },
    sessions: [
      session({ plays: 0, skipped: 3, new_event: false, event_id: 4, skipped_reason: 'imported before' }),
    ],
  });

describe('countOf', () => {
  it('writes the count with its noun, singular for one', () => {
    expect(countOf(1, 'play')).toBe('1 play');
    expect(countOf(0, 'play')).toBe('0 plays');
    expect(countOf(2400, 'play')).toBe('2,400 plays');
    expect(countOf(2, 'new song without a file', 'new songs without a file')).toBe(
      '2 new songs without a file',
    );
  });
});

describe('outcomeSentence', () => {
  it('says what a preview would add: plays, new songs, the new events of its nights', () => {
    expect(outcomeSentence(result())).toBe(
      'The import would add 3 plays, 3 new songs without a file and 1 new event.',
    );
    const twoSessionsOneNight = result({
      sessions: [session(), session({ index: 1, name: 'HISTORY 2024-05-03 (2)' })],
    });
    expect(outcomeSentence(twoSessionsOneNight)).toMatch(/and 1 new event\.$/);
  });

  it('says what an import added, with the events it created and the values it filled', () => {
    const done = result({
      dry_run: false,
      plays: 1,
      new_songs: 0,
      bpm_filled: 2,
      key_filled: 1,
      events_created: [{ event_id: 9, event_name: 'HISTORY 2024-05-03 (rekordbox)' }],
    });
    expect(outcomeSentence(done)).toBe(
      'Imported 1 play, 0 new songs without a file and 1 new event; 2 BPM values and 1 key filled where the song had none.',
    );
  });

  it('says that a second import of the same file adds nothing, and why', () => {
    expect(addsNothing(again(false))).toBe(true);
    expect(outcomeSentence(again(false))).toBe(
      'Nothing was added: this file was imported before: its plays are in the library and its tracks have their songs.',
    );
    expect(outcomeSentence(again(true))).toMatch(
      /^Importing would add nothing: this file was imported before/,
    );
  });

  it('says why a file without history adds nothing when its tracks are all known', () => {
    const known = result({
      plays: 0,
      new_songs: 0,
      history_sessions: 0,
      sessions: [],
      match_counts: { path: 3, content_hash: 0, name: 0, fingerprint: 0, new_song: 0, unmatched: 0 },
    });
    expect(outcomeSentence(known)).toBe(
      'Importing would add nothing: every track already has its song and there is no history to add.',
    );
    expect(outcomeSentence(result({ tracks: 0, plays: 0, new_songs: 0, sessions: [] }))).toBe(
      'Importing would add nothing: the file holds no tracks.',
    );
  });
});

describe('matchLines and skippedLines', () => {
  it('lists the match rules in the order the server tries them', () => {
    const lines = matchLines(
      result({
        match_counts: { path: 5, content_hash: 1, name: 2, fingerprint: 6, new_song: 3, unmatched: 4 },
      }),
    );
    expect(lines).toEqual([
      { label: 'By file path', count: 5 },
      { label: 'By content (file hash)', count: 1 },
      { label: 'By artist and title', count: 2 },
      { label: 'By listening to the file (fingerprint)', count: 6 },
      { label: 'New songs without a file', count: 3 },
      { label: 'Not matched (no song made)', count: 4 },
    ]);
  });

  it('lists only the reasons that left plays out', () => {
    expect(skippedLines(result())).toEqual([]);
    expect(
      skippedLines(
        result({
          plays_skipped: { already_imported: 3, already_held: 1, no_event: 0, no_time: 0, no_song: 2 },
        }),
      ),
    ).toEqual([
      { label: 'imported from this file before', count: 3 },
      { label: 'already held by a play of the same song that night', count: 1 },
      { label: 'whose track became no song', count: 2 },
    ]);
  });
});

describe('sessionEventText', () => {
  it('names the event, a new one as new, and the reason when there is none', () => {
    expect(sessionEventText(session())).toBe('New event: HISTORY 2024-05-03 (rekordbox)');
    expect(sessionEventText(session({ new_event: false, event_id: 3, event_name: 'Friday Social' }))).toBe(
      'Friday Social',
    );
    expect(
      sessionEventText(
        session({
          event_name: null,
          new_event: false,
          plays: 0,
          skipped_reason: 'no event holds its night (choose one, or let the import create one)',
        }),
      ),
    ).toBe('None: no event holds its night (choose one, or let the import create one)');
    expect(sessionEventText(session({ selected: false, event_name: null }))).toBe('Not chosen');
  });
});
