// Solfege's lesson notation read by solfege.mjs (the real-music benchmark's melodies with a stated
// key): a wrong reading would give the key scores a wrong truth or wrong audio.
import { describe, expect, it } from 'vitest';
import { notesToMidi, solfegeKey, solfegeLessons, solfegeNotes } from './solfege.mjs';
import { midiTempo } from './truth.mjs';

describe('solfege.mjs', () => {
  it('reads the key a \\key command states, in Dutch note names', () => {
    expect(solfegeKey('\\time 2/4 \\key f \\major c4')).toBe('F major');
    expect(solfegeKey('\\key bes \\major')).toBe('A# major');
    expect(solfegeKey('\\key fis \\minor')).toBe('F# minor');
    expect(solfegeKey('\\key es \\major')).toBe('D# major');
    expect(solfegeKey('c4 d e')).toBeNull();
    // Two different keys in one melody state none.
    expect(solfegeKey('\\key g \\major g4 \\key d \\major d4')).toBeNull();
  });

  it('places each note within a fourth of the last in \\relative mode, with octave marks, dots, ties and triplets', () => {
    const notes = solfegeNotes(
      "\\time 4/4 c4 d e f | g a b c | c, c'' r2 | fis4. bes8 ~ bes2 | \\times 2/3 { [c8 d e] }",
      60,
    );
    expect(notes.map((n) => n.pitch)).toEqual([60, 62, 64, 65, 67, 69, 71, 72, 60, 84, 90, 94, 96, 98, 100]);
    // f sharp a fourth above c (not a fifth under); the tied b flat is one note of an eighth and a
    // half; the triplet's eighths last 1/3.
    expect(notes[11]).toEqual({ pitch: 94, start: 13.5, length: 2.5 });
    expect(notes[12].start).toBe(16);
    expect(notes[14].length).toBeCloseTo(1 / 3);
  });

  it('reads a lesson file’s questions and writes them as a MIDI file the benchmark reads back', () => {
    const lesson = `header { module = dictation }
question {
  name = "Tune"
  tempo = 120/4
  music = rvoice("""
    \\time 2/4 \\key g \\major
    g4 b | d2 | c8 b a g | fis4 g |
  """)
}
question {
  name = "No key"
  music = rvoice(""" c4 d e f """)
}`;
    const [tune, none] = solfegeLessons(lesson);
    expect(tune).toMatchObject({ name: 'Tune', key: 'G major', tempo: 120 });
    expect(tune.notes.map((n) => n.pitch % 12)).toEqual([7, 11, 2, 0, 11, 9, 7, 6, 7]);
    expect(none.key).toBeNull();
    const found = midiTempo(notesToMidi(tune.notes, tune.tempo, { times: 2 }));
    expect(found.bpm).toBe(120);
    // G held 1 + 0.5 + 1 quarters a play, twice: the pitch classes as written (in ticks of 480).
    expect(found.pitchClassTime[7]).toBeGreaterThan(2 * 2.4 * 480);
    expect(found.pitchClassTime[1]).toBe(0);
  });
});
