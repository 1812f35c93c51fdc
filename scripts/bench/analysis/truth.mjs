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
//   left out (its tempo changes).
// - Frets on Fire songs: their chart (notes.mid) is synchronised to the recording; its tempo
//   map (MIDI Set Tempo events, microseconds per quarter note) gives BPM = 60,000,000 / value,
//   weighted by how long each tempo lasts, with the same 90 % rule.
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
        if (first & 0x80) {
          if (first & 1) o++;
          if (first & 2) o++;
          if (first & 4) o++;
          if (first & 8) fx = b[o++];
          if (first & 16) param = b[o++];
        } else {
          o += 2; // instrument, volume
          fx = b[o++];
          param = b[o++];
        }
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
        if (what & 32) o += 2;
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
    const rows = [];
    for (let r = 0; r < rowCount; r++) {
      const row = {};
      for (;;) {
        const variable = b[o++];
        if (variable === 0 || variable === undefined) break;
        const channel = (variable - 1) & 63;
        if (variable & 128) masks[channel] = b[o++];
        const mask = masks[channel];
        if (mask & 1) o++;
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
  return { speed, tempo, rowsPerBeat, rows: orders.flatMap(rowsOf), format: 'it' };
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
  return {
    bpm: found.bpm,
    share: found.share,
    detail: `${parsed.format} header speed ${parsed.speed} tempo ${parsed.tempo}, ${parsed.rowsPerBeat} rows/beat`,
  };
}

/** The tempo of a standard MIDI file's tempo map, weighted by time (in ticks of the first track's clock). */
export function midiTempo(buffer) {
  const b = new Uint8Array(buffer);
  if (ascii(b, 0, 4) !== 'MThd') return null;
  const be16 = (o) => (b[o] << 8) | b[o + 1];
  const be32 = (o) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
  const tracks = be16(10);
  let o = 8 + be32(4);
  const changes = [];
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
      let byte = b[o];
      if (byte & 0x80) {
        status = byte;
        o++;
      } else byte = status;
      if (status === 0xff) {
        const type = b[o++];
        const length = varLen();
        if (type === 0x51 && length === 3)
          changes.push({ tick, usPerBeat: (b[o] << 16) | (b[o + 1] << 8) | b[o + 2] });
        o += length;
        status = 0;
      } else if (status === 0xf0 || status === 0xf7) {
        o += varLen();
        status = 0;
      } else {
        const high = status & 0xf0;
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
  const [bpm, longest] = [...seconds].sort((a, c) => c[1] - a[1])[0];
  return { bpm, share: longest / total, detail: `MIDI tempo map, ${changes.length} tempo event(s)` };
}
