// Ground truth for the analysis benchmark: chord charts for Debian's mma (Musical MIDI
// Accompaniment) in a known key, groove and tempo, rendered to MP3 with fluidsynth and the General
// MIDI soundfont. Tempo and key are exact by construction, so no hand-labelled data set is needed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PITCHES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
export const SOUNDFONT_CANDIDATES = [
  '/usr/share/sounds/sf2/FluidR3_GM.sf2',
  '/usr/share/sounds/sf2/default-GM.sf2',
];

/**
 * Grooves of mma's standard library that West Coast Swing DJs play over, each with the tempo
 * range it is used at (within 70-135 BPM). Straight and swung/shuffled, 4/4 and 12/8 feels.
 */
export const GROOVES = [
  { name: 'SlowBlues', low: 70, high: 88, style: 'blues' },
  { name: 'Rock128', low: 70, high: 95, style: 'blues' },
  { name: 'PopBallad', low: 72, high: 100, style: 'pop' },
  { name: 'R&B', low: 80, high: 110, style: 'pop' },
  { name: 'Blues', low: 85, high: 120, style: 'blues' },
  { name: 'ShuffleBoggie', low: 90, high: 130, style: 'blues' },
  { name: 'Swing', low: 95, high: 135, style: 'pop' },
  { name: 'SoftRock', low: 90, high: 130, style: 'pop' },
  { name: 'BVFunk', low: 95, high: 125, style: 'pop' },
  { name: '8Beat', low: 100, high: 135, style: 'pop' },
  { name: 'Strut', low: 85, high: 125, style: 'pop' },
];

// Progressions as [semitones above the tonic, chord quality] per bar; every one starts on the
// tonic and ends on it, so the key is the one a musician would name.
const PROGRESSIONS = {
  major: {
    pop: [
      [
        [0, ''],
        [9, 'm'],
        [5, ''],
        [7, ''],
        [0, ''],
        [9, 'm'],
        [2, 'm7'],
        [7, '7'],
      ],
      [
        [0, ''],
        [5, ''],
        [0, ''],
        [7, '7'],
        [0, ''],
        [5, ''],
        [7, '7'],
        [0, ''],
      ],
      [
        [0, 'maj7'],
        [2, 'm7'],
        [4, 'm7'],
        [5, 'maj7'],
        [0, ''],
        [9, 'm7'],
        [2, 'm7'],
        [7, '7'],
      ],
    ],
    blues: [
      [
        [0, '7'],
        [5, '7'],
        [0, '7'],
        [0, '7'],
        [5, '7'],
        [5, '7'],
        [0, '7'],
        [0, '7'],
        [7, '7'],
        [5, '7'],
        [0, '7'],
        [7, '7'],
      ],
    ],
  },
  minor: {
    pop: [
      [
        [0, 'm'],
        [5, 'm'],
        [7, '7'],
        [0, 'm'],
        [0, 'm'],
        [8, ''],
        [5, 'm'],
        [7, '7'],
      ],
      [
        [0, 'm'],
        [10, ''],
        [8, ''],
        [7, '7'],
        [0, 'm'],
        [5, 'm'],
        [0, 'm'],
        [7, '7'],
      ],
      [
        [0, 'm7'],
        [5, 'm7'],
        [10, '7'],
        [3, 'maj7'],
        [8, 'maj7'],
        [2, 'm7b5'],
        [7, '7'],
        [0, 'm'],
      ],
    ],
    blues: [
      [
        [0, 'm7'],
        [5, 'm7'],
        [0, 'm7'],
        [0, 'm7'],
        [5, 'm7'],
        [5, 'm7'],
        [0, 'm7'],
        [0, 'm7'],
        [8, '7'],
        [7, '7'],
        [0, 'm7'],
        [7, '7'],
      ],
    ],
  },
};

/** Deterministic cases: every key equally often, grooves and tempi spread evenly. */
export function benchmarkCases(count) {
  const cases = [];
  for (let i = 0; i < count; i++) {
    const keyIndex = i % 24;
    const tonic = keyIndex % 12;
    const mode = keyIndex < 12 ? 'major' : 'minor';
    const groove = GROOVES[(i * 7 + Math.floor(i / 24)) % GROOVES.length];
    // Golden-ratio sequence: tempi cover each groove's range evenly. Whole BPM: mma truncates
    // a fractional Tempo (renderCase checks the MIDI file's tempo against the truth).
    const fraction = (i * 0.6180339887 + 0.31) % 1;
    const bpm = Math.round(groove.low + fraction * (groove.high - groove.low));
    const choices = PROGRESSIONS[mode][groove.style];
    const progression = choices[i % choices.length];
    cases.push({
      id: `${String(i).padStart(3, '0')}-${groove.name.replace(/[^A-Za-z0-9]/g, '')}-${bpm}-${PITCHES[tonic].replace('#', 's')}${mode === 'minor' ? 'm' : ''}`,
      groove: groove.name,
      bpm,
      key: `${PITCHES[tonic]} ${mode}`,
      chart: chart(groove.name, bpm, tonic, progression),
    });
  }
  return cases;
}

function chart(groove, bpm, tonic, progression) {
  const lines = [`Tempo ${bpm}`, `Groove ${groove}`];
  const bars = [];
  // About 32 bars: the progression repeated, ending on the tonic chord.
  while (bars.length < 28) bars.push(...progression);
  bars.push(progression[0]);
  bars.forEach(([interval, quality], index) => {
    lines.push(`${index + 1} ${PITCHES[(tonic + interval) % 12]}${quality}`);
  });
  return `${lines.join('\n')}\n`;
}

/** Renders one case to `<dir>/<id>.mp3` unless it is already there. Returns the file path. */
export function renderCase(testCase, dir, soundfont) {
  const mp3 = path.join(dir, `${testCase.id}.mp3`);
  if (fs.existsSync(mp3)) return mp3;
  const base = path.join(dir, `${testCase.id}.tmp`);
  fs.writeFileSync(`${base}.mma`, testCase.chart);
  try {
    execFileSync('mma', ['-f', `${base}.mid`, `${base}.mma`], { stdio: 'pipe' });
    const midiBpm = midiTempo(fs.readFileSync(`${base}.mid`));
    if (Math.abs(midiBpm - testCase.bpm) > 0.01) {
      throw new Error(`mma wrote ${midiBpm} BPM for ${testCase.id}, not ${testCase.bpm}`);
    }
    execFileSync(
      'fluidsynth',
      ['-ni', '-g', '0.6', '-r', '44100', '-F', `${base}.wav`, soundfont, `${base}.mid`],
      {
        stdio: 'pipe',
      },
    );
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      `${base}.wav`,
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      `${base}.mp3`,
    ]);
    fs.renameSync(`${base}.mp3`, mp3);
  } finally {
    for (const ext of ['mma', 'mid', 'wav', 'mp3']) fs.rmSync(`${base}.${ext}`, { force: true });
  }
  return mp3;
}

/** The first tempo of a MIDI file (meta event FF 51 03: microseconds per quarter note), in BPM. */
function midiTempo(midi) {
  const at = midi.indexOf(Buffer.from([0xff, 0x51, 0x03]));
  if (at < 0) throw new Error('the MIDI file has no tempo event');
  return 60e6 / midi.readUIntBE(at + 3, 3);
}
