// The melodies of GNU Solfege's dictation lessons (Debian package solfege: folk songs and two Bach
// inventions, written in Solfege's subset of LilyPond notation) with the key each one states
// (\key f \major), turned into notes and a standard MIDI file for the real-music benchmark's key
// scores. Only what those lessons use is read: note names in Dutch (c, cis, es, bes, ...),
// octave marks in \relative mode, durations and dots, rests, ties, \times 2/3 { } and beams
// ([ ] ignored); \clef, \time, \partial and \staff are skipped.

const STEPS = { c: 0, d: 1, e: 2, f: 3, g: 4, a: 5, b: 6 };
const SEMITONES = [0, 2, 4, 5, 7, 9, 11];
const PITCH_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

/** A Dutch note name (c, cis, ees, es, as, bes, fisis) as { step, alter }, or null. */
function noteName(name) {
  const m = /^([a-g])(isis|eses|is|es|s)?$/.exec(name);
  if (!m) return null;
  // "as" and "es" are a flat and e flat; "s" alone follows only a and e.
  if (m[2] === 's' && m[1] !== 'a' && m[1] !== 'e') return null;
  const alter = { isis: 2, is: 1, eses: -2, es: -1, s: -1 }[m[2] ?? ''] ?? 0;
  return { step: STEPS[m[1]], alter };
}

/** The key a \key command states ("\key bes \major"): "A# major", or null. */
export function solfegeKey(text) {
  const keys = [...text.matchAll(/\\key\s+([a-g][a-z]*)\s*\\(major|minor)/g)].map((m) => {
    const n = noteName(m[1]);
    return n ? `${PITCH_NAMES[(((SEMITONES[n.step] + n.alter) % 12) + 12) % 12]} ${m[2]}` : null;
  });
  if (keys.length === 0 || keys.some((k) => k === null)) return null;
  return new Set(keys).size === 1 ? keys[0] : null;
}

/**
 * The notes of one voice in \relative mode from `reference` (c' = MIDI 60): [{ pitch, start, length }]
 * in quarter notes.
 */
export function solfegeNotes(music, reference = 60) {
  const notes = [];
  // Commands with their arguments go first; what is left are notes, rests, ties and braces.
  const text = music
    .replace(/%[^\n]*/g, ' ')
    .replace(
      /\\(key\s+[a-g][a-z]*\s*\\(major|minor)|time\s+\d+\/\d+|clef\s+"?\w+"?|partial\s+\d+\.*|staff|relative\s+[a-g][a-z]*[',]*)/g,
      ' ',
    )
    .replace(/\\times\s+(\d+)\/(\d+)\s*\{/g, ' TIMES$1/$2 ')
    .replace(/[[\]|]/g, ' ');
  let previous = { octave: Math.floor(reference / 12) - 1, step: 0 };
  let length = 1;
  let time = 0;
  let scale = [1];
  let tie = false;
  for (const token of text.match(/TIMES\d+\/\d+|[{}~]|[a-gr][a-z]*[',]*\d*\.*/g) ?? []) {
    if (token.startsWith('TIMES')) {
      const [a, b] = token.slice(5).split('/').map(Number);
      scale.push(scale.at(-1) * (a / b));
      continue;
    }
    if (token === '{') {
      scale.push(scale.at(-1));
      continue;
    }
    if (token === '}') {
      if (scale.length > 1) scale = scale.slice(0, -1);
      continue;
    }
    if (token === '~') {
      tie = true;
      continue;
    }
    const m = /^([a-gr][a-z]*)([',]*)(\d*)(\.*)$/.exec(token);
    if (!m) continue;
    if (m[3]) {
      length = 4 / Number(m[3]);
      let dot = length / 2;
      for (let i = 0; i < m[4].length; i++, dot /= 2) length += dot;
    }
    const duration = length * scale.at(-1);
    if (m[1] === 'r' || m[1] === 's') {
      time += duration;
      tie = false;
      continue;
    }
    const name = noteName(m[1]);
    if (!name) continue;
    // \relative: the octave that puts the note within a fourth of the previous one, then the marks.
    const from = previous.octave * 7 + previous.step;
    let octave = previous.octave;
    while (octave * 7 + name.step - from > 3) octave--;
    while (octave * 7 + name.step - from < -3) octave++;
    for (const c of m[2]) octave += c === "'" ? 1 : -1;
    previous = { octave, step: name.step };
    const pitch = 12 * (octave + 1) + SEMITONES[name.step] + name.alter;
    const last = notes.at(-1);
    if (tie && last && last.pitch === pitch && Math.abs(last.start + last.length - time) < 1e-9)
      last.length += duration;
    else notes.push({ pitch, start: time, length: duration });
    tie = false;
    time += duration;
  }
  return notes;
}

/**
 * The questions of a Solfege lesson file: { name, key (null when none is stated), tempo (quarter
 * notes a minute), notes }. The melody is the question's `music`; a second staff (the inventions'
 * bass) is read as a second voice from c.
 */
export function solfegeLessons(text) {
  const questions = [];
  const shorthand = new Map(
    [...text.matchAll(/^\s*(\w+)\s*=\s*"([^"]*)%s[^"]*"/gm)].map((m) => [m[1], m[2]]),
  );
  for (const block of text.split(/^question\s*\{/m).slice(1)) {
    const name = /name\s*=\s*_?\(?"([^"]*)"/.exec(block)?.[1] ?? '';
    const tempoMatch = /tempo\s*=\s*(\d+)\/(\d+)/.exec(block) ?? /^tempo\s*=\s*(\d+)\/(\d+)/m.exec(text);
    const tempo = tempoMatch ? (Number(tempoMatch[1]) * 4) / Number(tempoMatch[2]) : 120;
    const musicAt = block.search(/^\s*music\s*=/m);
    if (musicAt < 0) continue;
    // The music statement runs to the next field (a line "name = ...") or the block's end.
    const after = block.slice(musicAt).replace(/^\s*music\s*=/, '');
    const next = after.search(/^\s*\w+\s*=/m);
    const statement = next < 0 ? after : after.slice(0, next);
    const voices = [...statement.matchAll(/(?:(\w+)\s*%\s*)?(?:\w+\()?"""([\s\S]*?)"""/g)].map(
      (m) => `${m[1] ? (shorthand.get(m[1]) ?? '') : ''} ${m[2]}`,
    );
    if (voices.length === 0) continue;
    const all = voices.join(' ');
    const notes = voices.flatMap((voice) => {
      const reference = /\\relative\s+c([',]*)/.exec(voice);
      const octaveMarks = reference ? [...reference[1]].reduce((o, c) => o + (c === "'" ? 12 : -12), 0) : 12;
      return solfegeNotes(voice, 48 + octaveMarks);
    });
    questions.push({ name, key: solfegeKey(all), tempo, notes });
  }
  return questions;
}

/** A format-0 standard MIDI file of `notes` (quarter notes) at `tempo`, played `times` times. */
export function notesToMidi(notes, tempo, { program = 0, times = 1 } = {}) {
  const ticks = 480;
  const end = Math.max(...notes.map((n) => n.start + n.length));
  const events = [];
  for (let r = 0; r < times; r++) {
    for (const n of notes) {
      const start = Math.round((n.start + r * end) * ticks);
      events.push({ tick: start, bytes: [0x90, n.pitch, 90] });
      events.push({
        tick: Math.round((n.start + n.length + r * end) * ticks) - 1,
        bytes: [0x80, n.pitch, 0],
      });
    }
  }
  events.sort((a, b) => a.tick - b.tick || a.bytes[0] - b.bytes[0]);
  const varLen = (v) => {
    const out = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) out.unshift((x & 0x7f) | 0x80);
    return out;
  };
  const us = Math.round(60e6 / tempo);
  const track = [0, 0xff, 0x51, 3, (us >> 16) & 255, (us >> 8) & 255, us & 255, 0, 0xc0, program];
  let last = 0;
  for (const e of events) {
    track.push(...varLen(e.tick - last), ...e.bytes);
    last = e.tick;
  }
  track.push(0, 0xff, 0x2f, 0);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, ticks >> 8, ticks & 255];
  const length = track.length;
  return Buffer.from([
    ...header,
    0x4d,
    0x54,
    0x72,
    0x6b,
    (length >> 24) & 255,
    (length >> 16) & 255,
    (length >> 8) & 255,
    length & 255,
    ...track,
  ]);
}
