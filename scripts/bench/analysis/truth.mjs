// Ground truth for the real-music analysis benchmark, read from the songs' own source files:
//
// - Tracker modules (.mod, .xm, .s3m, .it): a row lasts `speed` ticks of 2.5/`tempo` seconds
//   (the ProTracker/FastTracker/Scream Tracker/Impulse Tracker timing every player, libopenmpt
//   too, follows), so rows per minute = 24 × tempo / speed, and with `rowsPerBeat` rows to a beat
//   BPM = 24 × tempo / (speed × rowsPerBeat); with the usual 4 rows to a beat and speed 6,
//   BPM = tempo. Impulse Tracker files store their rows per beat (the editor's row highlight,
//   header byte 0x1E); other formats have none and 4 is taken. The initial speed and tempo come
//   from the header (a MOD has none: 6 and 125), then every speed/tempo command of the pattern
//   data is followed row by row through the order list (pattern breaks and jumps ignored); the
//   truth is the BPM that lasts longest, and a song where it lasts under 90 % of the time is
//   left out (its tempo changes). Over 240 BPM the beat counts subdivisions and is grouped as
//   the measure groups it: by three when the measure has 3 or 6 beats (Impulse Tracker files
//   store rows per measure, header byte 0x1F: a 12-row measure of 4-row beats is a fast 3/4,
//   felt one to the bar), else by two; other formats state no measure and 4 beats are taken.
//   A module whose notes do not repeat at the resulting beat (noteRepeat ≤ 0: the notes fall
//   between the stated beats, so the row highlight is not the metre that is played) is left out.
// - Modules and MIDI files alike: notes that repeat at 3/2 of the stated beat and hardly at the
//   beat itself (playedBeat) are grouped in threes of its half-beats, a 12/8 or 3/8 feel written
//   in 4/4: the beat played is the dotted one, at 2/3 of the stated BPM (since 2026-11-26).
// - Frets on Fire songs: their chart (notes.mid) is synchronised to the recording; its tempo
//   map (MIDI Set Tempo events, microseconds per quarter note) gives BPM = 60,000,000 / value,
//   weighted by how long each tempo lasts, with the same 90 % rule.
//
// - OpenMSX (openttd-openmsx: songs written for OpenTTD as MIDI) and Planet Blupi's MIDI music
//   (planetblupi-music-midi), rendered by fluidsynth with the FluidR3 General MIDI soundfont, its
//   reverb and chorus on: tempo from the MIDI tempo map as above; key from the file's key
//   signature where it states one (midiKey), else from its pitched notes (notesKey) as for the
//   LMMS projects below.
//
// Each function returns { bpm, share, detail } or null when the file cannot be read.

const u16 = (b, o) => b[o] | (b[o + 1] << 8);
const u32 = (b, o) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const ascii = (b, o, n) => String.fromCharCode(...b.subarray(o, o + n));

/** Follows speed/tempo changes over `rows` ([{ speed?, tempo? }] per row), weighting BPM by time. */
function dominantTempo(initialSpeed, initialTempo, rows, rowsPerBeat) {
  let speed = initialSpeed;
  let tempo = initialTempo;
  const seconds = new Map();
  let total = 0;
  for (const row of rows) {
    if (row.speed) speed = row.speed;
    if (row.tempo) tempo = row.tempo;
    const duration = (speed * 2.5) / tempo;
    const bpm = Math.round(((24 * tempo) / (speed * rowsPerBeat)) * 100) / 100;
    seconds.set(bpm, (seconds.get(bpm) ?? 0) + duration);
    total += duration;
  }
  if (total === 0) return null;
  const [bpm, longest] = [...seconds].sort((a, b) => b[1] - a[1])[0];
  return { bpm, share: longest / total, seconds: total };
}

function modRows(b) {
  const signature = ascii(b, 1080, 4);
  let channels = 4;
  const match = /^(\d)CHN$/.exec(signature) ?? /^(\d\d)CH$/.exec(signature);
  if (match) channels = Number(match[1]);
  else if (!['M.K.', 'M!K!', 'FLT4', '4CHN'].includes(signature)) return null;
  const length = b[950];
  const orders = [...b.subarray(952, 952 + length)];
  const rowsOf = (pattern) => {
    const out = [];
    const start = 1084 + pattern * 64 * channels * 4;
    for (let r = 0; r < 64; r++) {
      const row = {};
      for (let c = 0; c < channels; c++) {
        const o = start + (r * channels + c) * 4;
        if (o + 3 >= b.length) continue;
        if ((b[o] & 0x0f) | b[o + 1]) row.notes = (row.notes ?? 0) + 1;
        if ((b[o + 2] & 0x0f) === 0x0f && b[o + 3] > 0) {
          if (b[o + 3] < 0x20) row.speed = b[o + 3];
          else row.tempo = b[o + 3];
        }
      }
      out.push(row);
    }
    return out;
  };
  return { speed: 6, tempo: 125, rowsPerBeat: 4, rows: orders.flatMap(rowsOf), format: 'mod' };
}

function xmRows(b) {
  if (ascii(b, 0, 17) !== 'Extended Module: ') return null;
  const headerSize = u32(b, 60);
  const length = u16(b, 64);
  const channels = u16(b, 68);
  const patterns = u16(b, 70);
  const speed = u16(b, 76);
  const tempo = u16(b, 78);
  const orders = [...b.subarray(80, 80 + length)];
  let offset = 60 + headerSize;
  const table = [];
  for (let p = 0; p < patterns; p++) {
    const headerLength = u32(b, offset);
    const rowCount = u16(b, offset + 5);
    const packed = u16(b, offset + 7);
    let o = offset + headerLength;
    const end = o + packed;
    const rows = [];
    for (let r = 0; r < rowCount; r++) {
      const row = {};
      for (let c = 0; c < channels && packed > 0; c++) {
        let fx = 0;
        let param = 0;
        const first = b[o++];
        let note = 0;
        if (first & 0x80) {
          if (first & 1) note = b[o++];
          if (first & 2) o++;
          if (first & 4) o++;
          if (first & 8) fx = b[o++];
          if (first & 16) param = b[o++];
        } else {
          note = first;
          o += 2; // instrument, volume
          fx = b[o++];
          param = b[o++];
        }
        if (note > 0 && note < 97) row.notes = (row.notes ?? 0) + 1;
        if (fx === 0x0f && param > 0) {
          if (param < 0x20) row.speed = param;
          else row.tempo = param;
        }
      }
      rows.push(row);
    }
    if (packed > 0 && o !== end) return null; // not the layout we read: no truth rather than a wrong one
    table.push(packed > 0 ? rows : Array.from({ length: rowCount }, () => ({})));
    offset = end;
  }
  return { speed, tempo, rowsPerBeat: 4, rows: orders.flatMap((p) => table[p] ?? []), format: 'xm' };
}

function s3mRows(b) {
  if (ascii(b, 0x2c, 4) !== 'SCRM') return null;
  const orderCount = u16(b, 0x20);
  const instruments = u16(b, 0x22);
  const patterns = u16(b, 0x24);
  const speed = b[0x31];
  const tempo = b[0x32];
  const orders = [...b.subarray(0x60, 0x60 + orderCount)].filter((o) => o < 254);
  const pointers = 0x60 + orderCount + instruments * 2;
  const rowsOf = (p) => {
    if (p >= patterns) return [];
    let o = u16(b, pointers + p * 2) * 16 + 2;
    const rows = [];
    for (let r = 0; r < 64; r++) {
      const row = {};
      for (;;) {
        const what = b[o++];
        if (what === 0 || what === undefined) break;
        if (what & 32) {
          if (b[o] < 254) row.notes = (row.notes ?? 0) + 1;
          o += 2;
        }
        if (what & 64) o += 1;
        if (what & 128) {
          const command = b[o++];
          const info = b[o++];
          if (command === 1 && info > 0) row.speed = info;
          if (command === 20 && info >= 0x20) row.tempo = info;
        }
      }
      rows.push(row);
    }
    return rows;
  };
  return { speed, tempo, rowsPerBeat: 4, rows: orders.flatMap(rowsOf), format: 's3m' };
}

function itRows(b) {
  if (ascii(b, 0, 4) !== 'IMPM') return null;
  const orderCount = u16(b, 0x20);
  const instruments = u16(b, 0x22);
  const samples = u16(b, 0x24);
  const patterns = u16(b, 0x26);
  const rowsPerBeat = b[0x1e] || 4;
  const rowsPerMeasure = b[0x1f] || rowsPerBeat * 4;
  const speed = b[0x32];
  const tempo = b[0x33];
  const orders = [...b.subarray(0xc0, 0xc0 + orderCount)].filter((o) => o < 254);
  const pointers = 0xc0 + orderCount + instruments * 4 + samples * 4;
  const rowsOf = (p) => {
    if (p >= patterns) return [];
    const at = u32(b, pointers + p * 4);
    if (at === 0) return Array.from({ length: 64 }, () => ({}));
    const rowCount = u16(b, at + 2);
    let o = at + 8;
    const masks = new Uint8Array(64);
    const lastCommand = new Uint8Array(64);
    const lastValue = new Uint8Array(64);
    const lastNote = new Uint8Array(64);
    const rows = [];
    for (let r = 0; r < rowCount; r++) {
      const row = {};
      for (;;) {
        const variable = b[o++];
        if (variable === 0 || variable === undefined) break;
        const channel = (variable - 1) & 63;
        if (variable & 128) masks[channel] = b[o++];
        const mask = masks[channel];
        let note = 255;
        if (mask & 1) note = lastNote[channel] = b[o++];
        if (mask & 16) note = lastNote[channel];
        if (note < 120) row.notes = (row.notes ?? 0) + 1;
        if (mask & 2) o++;
        if (mask & 4) o++;
        let command = 0;
        let value = 0;
        if (mask & 8) {
          command = lastCommand[channel] = b[o++];
          value = lastValue[channel] = b[o++];
        } else if (mask & 128) {
          command = lastCommand[channel];
          value = lastValue[channel];
        }
        if (command === 1 && value > 0) row.speed = value;
        if (command === 20 && value >= 0x20) row.tempo = value;
      }
      rows.push(row);
    }
    return rows;
  };
  return { speed, tempo, rowsPerBeat, rowsPerMeasure, rows: orders.flatMap(rowsOf), format: 'it' };
}

/** The tempo a tracker module states, or null when it is not a module this reader knows. */
export function moduleTempo(buffer) {
  const b = new Uint8Array(buffer);
  let parsed = null;
  try {
    parsed = itRows(b) ?? xmRows(b) ?? s3mRows(b) ?? modRows(b);
  } catch {
    return null;
  }
  if (!parsed || !(parsed.speed > 0) || !(parsed.tempo > 0) || parsed.rows.length === 0) return null;
  const found = dominantTempo(parsed.speed, parsed.tempo, parsed.rows, parsed.rowsPerBeat);
  if (!found) return null;
  const rowsPerMeasure = parsed.rowsPerMeasure ?? parsed.rowsPerBeat * 4;
  const beatsPerMeasure = rowsPerMeasure / parsed.rowsPerBeat;
  let detail = `${parsed.format} header speed ${parsed.speed} tempo ${parsed.tempo}, ${parsed.rowsPerBeat} rows/beat`;
  if (parsed.rowsPerMeasure) detail += `, ${beatsPerMeasure} beats/measure`;
  // Over MAX_TRUTH_BPM the beat counts subdivisions: a pulse groups them as the measure does,
  // by three in a measure of 3 or 6 beats (a fast 3/4 is felt one to the bar, a 6/8 in dotted
  // quarters), else by two.
  let bpm = found.bpm;
  let beatRows = parsed.rowsPerBeat;
  while (bpm > MAX_TRUTH_BPM) {
    const group = beatsPerMeasure % 3 === 0 ? 3 : 2;
    bpm /= group;
    beatRows *= group;
    detail += group === 3 ? ', ÷3 (over 240, triple measure)' : ', halved (over 240)';
  }
  const played = playedBeat(parsed.rows, beatRows);
  if (played.dotted) {
    bpm *= 2 / 3;
    beatRows *= 1.5;
    detail += played.detail;
  }
  return {
    bpm: Math.round(bpm * 100) / 100,
    share: found.share,
    detail,
    beatRows,
    beatRepeat: noteRepeat(parsed.rows, beatRows),
  };
}

/**
 * Notes that repeat at 3/2 of the stated beat far more than at the beat itself are grouped in
 * threes of its half-beats (a 12/8 or 3/8 feel written in 4/4): the beat that is played is the
 * dotted one, at 2/3 of the stated BPM. "Far more" is under half: the stated beat's repetition
 * below DOTTED_BEAT_RATIO of the dotted beat's. Among the benchmark's songs the ratio is 0.18-0.31
 * for two OpenMSX files (their drums repeat every 6 sixteenths at 0.93-0.95, every quarter at
 * 0.17-0.32) and −1 for the_big_march_in_space.it (−0.11 against 0.11); every other MIDI file is
 * over 0.7 and every other module over 0.98, so any cut from 0.32 to 0.7 draws the same line.
 * `beatRows` must be even (the dotted beat a whole number of rows).
 */
export function playedBeat(rows, beatRows) {
  const repeat = noteRepeat(rows, beatRows);
  if (beatRows % 2 !== 0) return { dotted: false, repeat, dottedRepeat: null, detail: '' };
  const dottedRepeat = noteRepeat(rows, beatRows * 1.5);
  const dotted = dottedRepeat > 0 && repeat < DOTTED_BEAT_RATIO * dottedRepeat;
  const detail = dotted
    ? `, × 2/3 (the notes repeat at 3/2 of the stated beat, ${dottedRepeat.toFixed(2)}, not at it, ${repeat.toFixed(2)})`
    : '';
  return { dotted, repeat, dottedRepeat, detail };
}
export const DOTTED_BEAT_RATIO = 0.5;

/** Over this a module's beat counts subdivisions (see moduleTempo). */
export const MAX_TRUTH_BPM = 240;

/**
 * How the notes repeat at `lag` rows: the normalised autocorrelation of the number of notes
 * struck per row, in order-list order (1: every beat alike, 0: no relation, < 0: the notes fall
 * between the beats). A stated beat that the notes do not repeat at (≤ 0) is not what is played.
 */
export function noteRepeat(rows, lag) {
  const x = rows.map((row) => row.notes ?? 0);
  const n = x.length;
  if (n <= lag) return 0;
  const mean = x.reduce((sum, v) => sum + v, 0) / n;
  let variance = 0;
  for (const v of x) variance += (v - mean) ** 2;
  variance /= n;
  if (!(variance > 0)) return 0;
  let sum = 0;
  for (let i = 0; i + lag < n; i++) sum += (x[i] - mean) * (x[i + lag] - mean);
  return sum / (n - lag) / variance;
}

/** The tempo of a standard MIDI file's tempo map, weighted by time (in ticks of the first track's clock). */
export function midiTempo(buffer) {
  const b = new Uint8Array(buffer);
  if (ascii(b, 0, 4) !== 'MThd') return null;
  const be16 = (o) => (b[o] << 8) | b[o + 1];
  const be32 = (o) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
  const tracks = be16(10);
  let o = 8 + be32(4);
  const ticksPerQuarter = be16(12);
  const changes = [];
  const keySignatures = [];
  const noteTicks = [];
  // Pitch-class time of the pitched notes (not channel 10's drums, not General MIDI's percussive
  // and sound-effect programs 113-128), in ticks, for the notes' key (midiNotesKey).
  const pitchClassTime = new Array(12).fill(0);
  const programs = new Array(16).fill(0);
  const sounding = new Map();
  const endNote = (channel, pitch, tick) => {
    const start = sounding.get(channel * 128 + pitch);
    if (start === undefined) return;
    sounding.delete(channel * 128 + pitch);
    if (channel !== 9 && programs[channel] < 112) pitchClassTime[pitch % 12] += tick - start;
  };
  let lastTick = 0;
  for (let t = 0; t < tracks && o < b.length; t++) {
    if (ascii(b, o, 4) !== 'MTrk') return null;
    const end = o + 8 + be32(o + 4);
    o += 8;
    let tick = 0;
    let status = 0;
    const varLen = () => {
      let value = 0;
      for (;;) {
        const byte = b[o++];
        value = (value << 7) | (byte & 0x7f);
        if (!(byte & 0x80)) return value;
      }
    };
    while (o < end) {
      tick += varLen();
      const byte = b[o];
      if (byte & 0x80) {
        status = byte;
        o++;
      }
      if (status === 0xff) {
        const type = b[o++];
        const length = varLen();
        if (type === 0x51 && length === 3)
          changes.push({ tick, usPerBeat: (b[o] << 16) | (b[o + 1] << 8) | b[o + 2] });
        if (type === 0x59 && length === 2)
          keySignatures.push({ sharps: (b[o] << 24) >> 24, minor: b[o + 1] === 1 });
        o += length;
        status = 0;
      } else if (status === 0xf0 || status === 0xf7) {
        o += varLen();
        status = 0;
      } else {
        const high = status & 0xf0;
        const channel = status & 0x0f;
        if (high === 0x90 && b[o + 1] > 0) {
          noteTicks.push(tick);
          // A note that starts again before its end ends there.
          endNote(channel, b[o], tick);
          sounding.set(channel * 128 + b[o], tick);
        } else if (high === 0x80 || high === 0x90) endNote(channel, b[o], tick);
        else if (high === 0xc0) programs[channel] = b[o];
        o += high === 0xc0 || high === 0xd0 ? 1 : 2;
      }
    }
    lastTick = Math.max(lastTick, tick);
    o = end;
  }
  if (changes.length === 0) changes.push({ tick: 0, usPerBeat: 500000 });
  changes.sort((a, c) => a.tick - c.tick);
  const seconds = new Map();
  let total = 0;
  for (let i = 0; i < changes.length; i++) {
    const ticks = (changes[i + 1]?.tick ?? lastTick) - changes[i].tick;
    const bpm = Math.round((60e6 / changes[i].usPerBeat) * 100) / 100;
    const duration = ticks * changes[i].usPerBeat;
    seconds.set(bpm, (seconds.get(bpm) ?? 0) + duration);
    total += duration;
  }
  if (total === 0) return null;
  const [tempoBpm, longest] = [...seconds].sort((a, c) => c[1] - a[1])[0];
  // The notes struck on a grid of twelfths of a quarter note (sixteenths and triplets both fall
  // on it), checked as the modules' rows are: is the quarter note what is played?
  let bpm = tempoBpm;
  let detail = `MIDI tempo map, ${changes.length} tempo event(s)`;
  if (noteTicks.length > 0 && ticksPerQuarter > 0 && !(ticksPerQuarter & 0x8000)) {
    const step = ticksPerQuarter / 12;
    const rows = Array.from({ length: Math.round(Math.max(...noteTicks) / step) + 1 }, () => ({ notes: 0 }));
    for (const tick of noteTicks) rows[Math.round(tick / step)].notes++;
    const played = playedBeat(rows, 12);
    if (played.dotted) {
      bpm = Math.round(tempoBpm * (2 / 3) * 100) / 100;
      detail += played.detail;
    }
  }
  const stated = midiKey(keySignatures, pitchClassTime);
  return {
    bpm,
    share: longest / total,
    detail,
    pitchClassTime,
    // keySource: 'signature' (its sharps stated, the mode chosen by the notes) or 'notes'.
    ...(stated.key
      ? { ...stated, keySource: 'signature' }
      : { ...notesKey(pitchClassTime, stated.keyDetail), keySource: 'notes' }),
  };
}

/**
 * The key a MIDI file states: its key signature meta events (FF 59: sharps or flats, major or
 * minor). Taken only when every one names the same sharps or flats and they are not C major with
 * no sharps (0, major: what sequencers write when nobody set a key). The signature's sharps are
 * the written pitch set; its major/minor byte is not trusted (since 2026-11-27): MuseScore writes
 * "major" for every score, and sequencers leave the byte at its default 0. The pitched notes
 * choose between the signature's major key and its relative minor (three semitones under), by the
 * Kostka-Payne correlation of notesKey (no key when they differ by under SIGNATURE_MODE_MARGIN); a
 * file with no pitched notes keeps the byte's mode.
 */
function midiKey(signatures, pitchClassTime) {
  if (signatures.length === 0) return { key: null, keyDetail: 'no key signature' };
  const names = new Set(signatures.map((k) => k.sharps));
  if (names.size > 1) return { key: null, keyDetail: `key signatures change (${[...names].join(', ')})` };
  const { sharps } = signatures[0];
  const statedMinor = signatures.every((k) => k.minor);
  if (sharps === 0 && !statedMinor) return { key: null, keyDetail: 'key signature C major (the default)' };
  const major = (((sharps * 7) % 12) + 12) % 12;
  const pair = [`${PITCH_NAMES[major]} major`, `${PITCH_NAMES[(major + 9) % 12]} minor`];
  const written = `MIDI key signature ${sharps > 0 ? `${sharps} sharp(s)` : sharps < 0 ? `${-sharps} flat(s)` : 'no sharps'} ${statedMinor ? 'minor' : 'major'}`;
  if (!pitchClassTime.some((t) => t > 0)) return { key: pair[statedMinor ? 1 : 0], keyDetail: written };
  const r = new Map(symbolicKeys(pitchClassTime).map((k) => [k.key, k.r]));
  const [chosen, other] = r.get(pair[1]) > r.get(pair[0]) ? [pair[1], pair[0]] : [pair[0], pair[1]];
  if (r.get(chosen) - r.get(other) < SIGNATURE_MODE_MARGIN)
    return {
      key: null,
      keyDetail: `${written}; its notes do not choose: ${chosen} ${r.get(chosen).toFixed(3)}, ${other} ${r.get(other).toFixed(3)}`,
    };
  return {
    key: chosen,
    keyDetail: `${written}; its notes choose ${chosen} (r ${r.get(chosen).toFixed(3)}) over ${other} (${r.get(other).toFixed(3)})`,
  };
}

/**
 * The key of a MIDI file's notes where it states none (or only the default C major): their
 * pitch-class time correlated with the Kostka-Payne profiles, as for the LMMS projects below, and
 * no key when the runner-up comes within KEY_TRUTH_MARGIN.
 */
export function notesKey(pitchClassTime, why) {
  if (!pitchClassTime.some((t) => t > 0)) return { key: null, keyDetail: `${why}; no pitched notes` };
  const ranked = symbolicKeys(pitchClassTime);
  if (ranked[0].r < KEY_TRUTH_MIN_R)
    return { key: null, keyDetail: `${why}; notes fit no key: ${ranked[0].key} ${ranked[0].r.toFixed(3)}` };
  if (ranked[0].r - ranked[1].r < KEY_TRUTH_MARGIN)
    return {
      key: null,
      keyDetail: `${why}; notes ambiguous: ${ranked[0].key} ${ranked[0].r.toFixed(3)}, ${ranked[1].key} ${ranked[1].r.toFixed(3)}`,
    };
  return {
    key: ranked[0].key,
    keyDetail: `${why}; notes' Kostka-Payne key, r ${ranked[0].r.toFixed(3)}, runner-up ${ranked[1].key} ${ranked[1].r.toFixed(3)}`,
  };
}

// - LMMS projects (lmms-common's demos and shorties, electronic productions with synths, samples
//   and effects, rendered by LMMS itself): the tempo is the project's `bpm` (head element; none of
//   these projects automates it). The key is derived from the notes, as no project states one:
//   every note of an unmuted track whose pitch the project fixes (a synth: TripleOscillator with
//   every oscillator an octave multiple, ZynAddSubFX with no key shift, LB302, SID, BitInvader,
//   PAPU, Organic, Monstro, Watsyn, NES, OPL2, Mallets, Vibed) sounds at key - basenote + 57 +
//   the track's pitch (MIDI-like numbering, 57 = A 440); its length, times how often its pattern
//   plays, goes into a pitch-class histogram, which is correlated with the Temperley-Kostka-Payne
//   symbolic profiles (a profile of written notes, not the one our audio analyser uses). No key
//   is taken when pitched samples (AudioFileProcessor outside drums/effects, Kicker) carry more
//   than a quarter of the pitched notes' time (a sample's own pitch is not in the project), or
//   when the runner-up key correlates within KEY_TRUTH_MARGIN of the best (the notes alone do
//   not tell the key).

/** A small XML reader for LMMS projects: elements with attributes and children, text ignored. */
export function parseXml(text) {
  const root = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  const tag =
    /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>/g;
  const attr = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (const m of text.matchAll(tag)) {
    if (!m[2]) continue;
    if (m[1]) {
      // Close the innermost open element of that name (tolerates nothing else).
      while (stack.length > 1 && stack.pop().name !== m[2]);
      continue;
    }
    const attrs = {};
    for (const a of (m[3] ?? '').matchAll(attr)) attrs[a[1]] = a[2] ?? a[3];
    const element = { name: m[2], attrs, children: [] };
    stack.at(-1).children.push(element);
    if (!m[4]) stack.push(element);
  }
  return root;
}
const childrenOf = (element, name) => element.children.filter((c) => c.name === name);
const childOf = (element, name) => element.children.find((c) => c.name === name);
function* descendants(element, name) {
  for (const c of element.children) {
    if (c.name === name) yield c;
    yield* descendants(c, name);
  }
}

/** Temperley's Kostka-Payne profiles (probability of each scale degree in a segment), C first. */
const KOSTKA_PAYNE = {
  major: [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4],
  minor: [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33],
};
const PITCH_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
/**
 * The runner-up key must correlate at least this much less than the best for a key truth taken
 * from notes alone (notesKey, the LMMS projects). 0.1 since 2026-11-27 (0.05 before), chosen on
 * music whose source states its key, blind to any analyser's output (`node
 * scripts/bench/key-truth.mjs`): with 0.05 the rule named the stated key on 90.8 % of the 141
 * ABC tunes, Solfege melodies and mma charts it gave a key (8 of its 13 misses the subdominant of
 * a blues or rock chart, at margins 0.06-0.07), with 0.1 on 98.2 % of 112.
 */
export const KEY_TRUTH_MARGIN = 0.1;
/**
 * Where a key signature states the sharps, the notes' Kostka-Payne correlations must differ by
 * this much to choose between its major key and its relative minor (midiKey). On stated keys
 * that choice is right on 100 % of 85 mma charts, 93.6 % of 47 ABC tunes and 100 % of 35 Solfege
 * melodies it decides (key-truth.mjs); unchanged since 2026-11-27.
 */
export const SIGNATURE_MODE_MARGIN = 0.05;
/**
 * A MIDI file's notes must correlate at least this much with their best key (every LMMS key truth
 * does: 0.75-0.94). Under it the notes fit no profile (a drum part on a melodic channel, a
 * modulating piece): on the benchmark four files whose best key is otherwise clear, at 0.45-0.68.
 */
export const KEY_TRUTH_MIN_R = 0.7;

/** The 24 keys ranked by Pearson correlation of `histogram` (C first) with the Kostka-Payne profiles. */
export function symbolicKeys(histogram) {
  const ranked = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const mode of ['major', 'minor']) {
      const profile = KOSTKA_PAYNE[mode];
      const x = Array.from({ length: 12 }, (_, i) => histogram[(i + tonic) % 12]);
      const mx = x.reduce((s, v) => s + v, 0) / 12;
      const my = profile.reduce((s, v) => s + v, 0) / 12;
      let num = 0;
      let vx = 0;
      let vy = 0;
      for (let i = 0; i < 12; i++) {
        num += (x[i] - mx) * (profile[i] - my);
        vx += (x[i] - mx) ** 2;
        vy += (profile[i] - my) ** 2;
      }
      ranked.push({ key: `${PITCH_NAMES[tonic]} ${mode}`, r: vx > 0 ? num / Math.sqrt(vx * vy) : 0 });
    }
  }
  return ranked.sort((a, b) => b.r - a.r);
}

const FIXED_PITCH_SYNTHS = new Set([
  'tripleoscillator',
  'zynaddsubfx',
  'lb302',
  'sid',
  'bitinvader',
  'papu',
  'organic',
  'monstro',
  'watsyn',
  'nes',
  'opl2',
  'malletsstk',
  'vibedstrings',
]);
const UNPITCHED_SAMPLE = /^(drums|drumsynth|effects|misc|beats|shapes)\//;

/** Why an instrument track's notes do or do not say pitch classes: 'pitched', 'sample', 'unpitched'. */
function trackPitch(track) {
  const it = childOf(track, 'instrumenttrack');
  const instrument = it && childOf(it, 'instrument');
  const name = instrument?.attrs.name;
  if (!name) return 'unpitched';
  if (name === 'audiofileprocessor') {
    const src = childOf(instrument, 'audiofileprocessor')?.attrs.src ?? '';
    return UNPITCHED_SAMPLE.test(src) ? 'unpitched' : 'sample';
  }
  if (name === 'kicker' || name === 'sfxr') return 'unpitched';
  if (!FIXED_PITCH_SYNTHS.has(name)) return 'sample';
  if (name === 'tripleoscillator') {
    const osc = childOf(instrument, 'tripleoscillator')?.attrs ?? {};
    for (const i of [0, 1, 2]) {
      if (Number(osc[`vol${i}`] ?? 0) > 0 && Number(osc[`coarse${i}`] ?? 0) % 12 !== 0) return 'sample';
    }
  }
  if (name === 'zynaddsubfx') {
    for (const par of descendants(instrument, 'par')) {
      if (par.attrs.name === 'key_shift' && par.attrs.value !== undefined && par.attrs.value !== '64')
        return 'sample';
    }
  }
  return 'pitched';
}

/**
 * The tempo and (where the notes tell it) the key of an LMMS project's XML (.mmp, or .mmpz
 * inflated): { bpm, detail, key, keyDetail }; key null with keyDetail saying why.
 */
export function lmmsTruth(xmlText) {
  const root = parseXml(xmlText);
  const project = childOf(root, 'lmms-project') ?? childOf(root, 'multimedia-project');
  const head = project && childOf(project, 'head');
  const song = project && childOf(project, 'song');
  if (!head || !song || !(Number(head.attrs.bpm) > 0)) return null;
  const bpm = Number(head.attrs.bpm);
  const masterPitch = Number(head.attrs.masterpitch ?? 0);
  const container = childOf(song, 'trackcontainer');
  const tracks = container ? childrenOf(container, 'track') : [];
  const pitched = new Array(12).fill(0);
  let sampleTime = 0;
  let pitchedTime = 0;
  const addPatterns = (track, playsOf) => {
    if (track.attrs.muted === '1' || track.attrs.type !== '0') return;
    const kind = trackPitch(track);
    if (kind === 'unpitched') return;
    const it = childOf(track, 'instrumenttrack');
    const shift =
      57 -
      Number(it.attrs.basenote ?? 57) +
      Math.round(Number(it.attrs.pitch ?? 0) / 100) +
      (it.attrs.usemasterpitch === '0' ? 0 : masterPitch);
    for (const pattern of childrenOf(track, 'pattern')) {
      if (pattern.attrs.muted === '1') continue;
      const plays = playsOf(pattern);
      if (!(plays > 0)) continue;
      for (const note of childrenOf(pattern, 'note')) {
        const length = Number(note.attrs.len);
        // Step-sequencer hits (len -192 in beat patterns) last one step.
        const time = (length > 0 ? length : 12) * plays;
        if (kind === 'sample') {
          sampleTime += time;
          continue;
        }
        const pc = (((Number(note.attrs.key) + shift) % 12) + 12) % 12;
        pitched[pc] += time;
        pitchedTime += time;
      }
    }
  };
  // Beat/bassline tracks: one shared container; its patterns at pos = index × 192 play wherever
  // the index-th beat/bassline track of the song places a clip (bbtco), for the clip's length.
  const bbTracks = tracks.filter((t) => t.attrs.type === '1');
  const bbPlays = bbTracks.map((t) =>
    t.attrs.muted === '1' ? 0 : childrenOf(t, 'bbtco').reduce((s, c) => s + Number(c.attrs.len || 0), 0),
  );
  for (const t of bbTracks) {
    const inner = childOf(t, 'bbtrack');
    const innerContainer = inner && childOf(inner, 'trackcontainer');
    if (!innerContainer) continue;
    for (const track of childrenOf(innerContainer, 'track')) {
      addPatterns(track, (pattern) => {
        const index = Math.round(Number(pattern.attrs.pos) / 192);
        const length = Math.max(192, Number(pattern.attrs.len) || 192);
        return (bbPlays[index] ?? 0) / length;
      });
    }
  }
  for (const track of tracks) addPatterns(track, () => 1);
  let key = null;
  let keyDetail;
  if (pitchedTime === 0) keyDetail = 'no pitched synth notes';
  else if (sampleTime > 0.25 * (sampleTime + pitchedTime))
    keyDetail = `pitched samples carry ${((100 * sampleTime) / (sampleTime + pitchedTime)).toFixed(0)} % of the notes`;
  else {
    const ranked = symbolicKeys(pitched);
    const margin = ranked[0].r - ranked[1].r;
    if (margin < KEY_TRUTH_MARGIN)
      keyDetail = `notes ambiguous: ${ranked[0].key} ${ranked[0].r.toFixed(3)}, ${ranked[1].key} ${ranked[1].r.toFixed(3)}`;
    else {
      key = ranked[0].key;
      keyDetail = `notes' Kostka-Payne key, r ${ranked[0].r.toFixed(3)}, runner-up ${ranked[1].key} ${ranked[1].r.toFixed(3)}`;
    }
  }
  return { bpm, detail: 'LMMS project bpm', key, keyDetail, keySource: 'notes' };
}

// - ABC tunes (the examples of Debian's abcmidi and abcm2ps): each tune (from its X: line) is
//   rendered by abc2midi and fluidsynth; tempo from the MIDI file abc2midi writes, key from the
//   tune's K: field, which states tonic and mode (abcKey). A major or minor key (K:G, K:Gmaj,
//   K:Am, K:Amin, Ionian, Aeolian) is the truth, and since 2026-11-27 so is a church mode, scored
//   as MIREX scores keys, by its tonic and its third (K:Ador, K:Ephr, K:Bloc: minor; K:Gmix,
//   K:Flyd: major). Explicit accidentals (K:Dphr ^F, K:D exp _b ^f), bagpipe keys (K:HP), K:none
//   or no key, a key that changes in the tune, a retuned scale (%%temperament, %%MIDI
//   temperament...), microtonal accidentals (^/c, _3/2e: a Persian dastgah's half-flats), a
//   voice in the percussion clef (abc2midi plays drum notation as pitched notes) and a tune with
//   no notes (rests under chord symbols: the K: signs an empty staff) give none. A K:
//   field (or an inline [K:...]) that only sets a clef (K:bass, [K:treble-8], K: clef=alto,
//   [K:alto4]) states no key and changes none (until 2026-11-27 it counted as a key change).

/** Clef names (with a staff line, 1-5, and an octave, ±8) and K:/V: options (clef=none too): not part of a key. */
const ABC_CLEF = /(^|\s)(treble|bass|alto|tenor|baritone|soprano|mezzosoprano|perc)[1-5]?([+-]8)?(?=\s|$)/gi;
const ABC_OPTION = /(^|\s)[a-z-]+\s*=\s*("[^"]*"|\S+)/gi;
/** Tonic's third by mode (the first three letters, as ABC reads them): MIREX scores a mode as its tonic's major or minor key. */
const ABC_MODE_MINOR = {
  '': false,
  m: true,
  min: true,
  maj: false,
  ion: false,
  aeo: true,
  dor: true,
  phr: true,
  loc: true,
  lyd: false,
  mix: false,
};

/** The tunes of an ABC file: { number, title, text, key, keyDetail } (key null with the reason). */
export function abcTunes(text) {
  const tunes = [];
  const starts = [...text.matchAll(/^X:\s*(\d+)/gm)];
  starts.forEach((start, i) => {
    const body = text.slice(start.index, starts[i + 1]?.index ?? text.length);
    const fields = (name) =>
      [...body.matchAll(new RegExp(`^${name}:\\s*([^%\\n]*)`, 'gm'))].map((m) => m[1].trim());
    const inline = (name) =>
      [...body.matchAll(new RegExp(`\\[${name}:\\s*([^\\]]*)\\]`, 'g'))].map((m) => m[1].trim());
    const keys = [...fields('K'), ...inline('K')];
    const voices = [...fields('V'), ...inline('V')];
    // The music alone: no comments, no quoted chord symbols or annotations, no field lines, no
    // inline fields or decorations; what is left of A-G is notes.
    const music = body
      .split('\n')
      .filter((line) => !/^[A-Za-z+]:/.test(line))
      .map((line) =>
        line
          .replace(/%.*/, '')
          .replace(/"[^"]*"/g, '')
          .replace(/\[[A-Za-z]:[^\]]*\]/g, '')
          .replace(/![^!]*!|\+[^+]*\+/g, ''),
      )
      .join('\n');
    const why =
      // A tune that retunes the scale (%%temperament, %%MIDI temperament...) sounds no key of 12 equal semitones.
      /^%%(MIDI\s+)?temperament/m.test(body)
        ? 'the tune retunes the scale (%%temperament)'
        : /[\^_]\d*\/\d*[A-Ga-g]/.test(music)
          ? 'microtonal accidentals (^/, _/): not 12 equal semitones'
          : [...keys, ...voices].some((k) => /(^|\s)(clef\s*=\s*)?perc\b/i.test(k))
            ? 'a voice in the percussion clef (abc2midi plays it as pitched notes)'
            : !/[A-Ga-g]/.test(music)
              ? 'no notes (rests and chord symbols only): its K: signs an empty staff'
              : null;
    tunes.push({
      number: Number(start[1]),
      title: fields('T')[0] ?? '',
      text: body,
      ...(why ? { key: null, keyDetail: why } : abcKey(keys)),
    });
  });
  return tunes;
}

/** The key a tune's K: fields state (see above), or null with the reason. */
export function abcKey(keys) {
  if (keys.length === 0) return { key: null, keyDetail: 'no K: field' };
  // Options (clef=, middle=, transpose=, ...) and clef names are not part of the key; a field
  // left empty by them only sets a clef.
  const names = keys
    .map((k) => k.replace(ABC_OPTION, ' ').replace(ABC_CLEF, ' ').replace(/\s+/g, ' ').trim())
    .filter((k) => k !== '');
  if (names.length === 0) return { key: null, keyDetail: 'K: sets a clef only (no key)' };
  if (new Set(names).size > 1) return { key: null, keyDetail: `the key changes (K: ${names.join(', ')})` };
  const match = /^([A-G])([#b]?)\s*([a-z]*)$/i.exec(names[0]);
  // 'm' alone is minor; every other mode is named by its first three letters (or in full).
  const minor = match ? ABC_MODE_MINOR[match[3].toLowerCase().slice(0, 3)] : undefined;
  if (
    minor === undefined ||
    (match[3].length > 3 &&
      !/^(minor|major|ionian|aeolian|dorian|phrygian|lydian|mixolydian|locrian)$/i.test(match[3]))
  )
    return { key: null, keyDetail: `K: ${names[0]} (added accidentals or not a key)` };
  const base = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }[match[1].toUpperCase()];
  const tonic = (base + (match[2] === '#' ? 1 : match[2] === 'b' ? 11 : 0)) % 12;
  return { key: `${PITCH_NAMES[tonic]} ${minor ? 'minor' : 'major'}`, keyDetail: `ABC K: ${names[0]}` };
}
