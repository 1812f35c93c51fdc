// The benchmark's music: freely licensed game soundtracks from Debian packages, fetched with
// `apt-get download` into .cache/recognition (ignored by git) and unpacked with `dpkg-deb -x`.
// Frets on Fire songs come as stems (song, guitar, rhythm): they are mixed into one track.
// Every track is re-encoded once to mono MP3 (192 kbit/s) in .cache/recognition/tracks.
// Duplicates (the same file under two folders) are dropped by content hash; tracks shorter than
// 30 s (jingles, effects) are left out.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PACKAGES = [
  'fretsonfire-songs-muldjord',
  'fretsonfire-songs-sectoid',
  'asc-music',
  'planetblupi-music-ogg',
  'hyperrogue-music',
  'drascula-music',
];

const AUDIO = /\.(ogg|mp3|flac|wav|opus)$/i;

export function probeDuration(ffprobe, file) {
  try {
    const out = execFileSync(ffprobe, [
      '-v',
      'quiet',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      file,
    ]);
    return Number(String(out).trim());
  } catch {
    return Number.NaN; // unreadable: left out
  }
}

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && AUDIO.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Music that is never indexed, only listened to for false plays at length (about 10 h): game
 * soundtracks of other Debian packages, their music folders only (no sound effects).
 */
export const UNKNOWN_PACKAGES = [
  'wesnoth-1.16-music',
  'warzone2100-music',
  'hedgewars-data',
  'freedroidrpg-data',
  'supertux-data',
];

/** Downloads and unpacks the packages (once); returns the folder of each. */
export function fetchPackages(cacheDir, log, packages = PACKAGES) {
  const debs = path.join(cacheDir, 'debs');
  const unpacked = path.join(cacheDir, 'pkgs');
  fs.mkdirSync(debs, { recursive: true });
  fs.mkdirSync(unpacked, { recursive: true });
  const folders = [];
  for (const name of packages) {
    let deb = fs.readdirSync(debs).find((file) => file.startsWith(`${name}_`) && file.endsWith('.deb'));
    if (!deb) {
      log(`apt-get download ${name}`);
      execFileSync('apt-get', ['download', name], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
      deb = fs.readdirSync(debs).find((file) => file.startsWith(`${name}_`) && file.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download ${name} produced no .deb`);
    }
    const target = path.join(unpacked, deb.replace(/\.deb$/, ''));
    if (!fs.existsSync(target)) execFileSync('dpkg-deb', ['-x', path.join(debs, deb), target]);
    folders.push(target);
  }
  return folders;
}

/**
 * The tracks: { id, source, duration } with `source` one playable file (stems already mixed).
 * Written to <cacheDir>/tracks/, stable across runs (sorted by content hash).
 */
export function buildTracks(cacheDir, { ffmpeg, ffprobe, log }) {
  const folders = fetchPackages(cacheDir, log);
  const tracksDir = path.join(cacheDir, 'tracks');
  const sources = () => {
    const found = [];
    for (const folder of folders) {
      const files = walk(folder).filter((file) => !file.includes('/sounds/'));
      const byDir = new Map();
      for (const file of files) {
        if (file.includes('/fretsonfire/')) {
          const dir = path.dirname(file);
          byDir.set(dir, [...(byDir.get(dir) ?? []), file]);
        } else found.push([file]);
      }
      for (const stems of byDir.values()) found.push(stems.sort());
    }
    return found;
  };
  // Every track is re-encoded (MP3, mono): the import's tag reader finds no duration in many Ogg
  // Vorbis files (it rejects them), and stems must be mixed anyway.
  const playable = (id, stems) => {
    fs.mkdirSync(tracksDir, { recursive: true });
    const out = path.join(tracksDir, `${id}.mp3`);
    const inputs = stems.flatMap((stem) => ['-i', stem]);
    const mix = stems.length > 1 ? ['-filter_complex', `amix=inputs=${stems.length}:normalize=0`] : [];
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      ...inputs,
      ...mix,
      '-ac',
      '1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      out,
    ]);
    return out;
  };
  return listTracks(cacheDir, path.join(tracksDir, 'manifest.json'), folders, { ffprobe, sources, playable });
}

/**
 * The tracks of UNKNOWN_PACKAGES, as they come (decoded by ffmpeg when used; nothing is
 * re-encoded): { id, file, duration, origin }, at least 30 s each, duplicates dropped by content
 * hash. Listed once in <cacheDir>/unknown.json.
 */
export function buildUnknownTracks(cacheDir, { ffprobe, log }) {
  const folders = fetchPackages(cacheDir, log, UNKNOWN_PACKAGES);
  const sources = () =>
    folders.flatMap((folder) =>
      walk(folder)
        .filter((file) => /music/i.test(path.relative(folder, file)))
        .map((file) => [file]),
    );
  const playable = (_id, [file]) => path.resolve(file);
  return listTracks(cacheDir, path.join(cacheDir, 'unknown.json'), folders, { ffprobe, sources, playable });
}

/**
 * The tracks of `sources()` (each a list of files: one, or a song's stems), once per content (by
 * hash), at least 30 s long, each { id, file: playable(id, files), duration, origin }, sorted by
 * id and listed in `manifest`, which later runs read back instead.
 */
function listTracks(cacheDir, manifest, folders, { ffprobe, sources, playable }) {
  if (fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const seen = new Set();
  const tracks = [];
  for (const files of sources()) {
    const hash = createHash('sha256');
    for (const file of files) hash.update(fs.readFileSync(file));
    const id = hash.digest('hex').slice(0, 16);
    if (seen.has(id)) continue;
    seen.add(id);
    const duration = Math.max(...files.map((file) => probeDuration(ffprobe, file)));
    if (!(duration >= 30)) continue;
    tracks.push({ id, file: playable(id, files), duration, origin: path.relative(cacheDir, files[0]) });
  }
  // An empty corpus is a broken tool (ffprobe or ffmpeg missing), not a result: never cached.
  if (tracks.length === 0)
    throw new Error(`no playable track found in ${folders.join(', ')} (is ffprobe installed?)`);
  tracks.sort((a, b) => a.id.localeCompare(b.id));
  fs.writeFileSync(manifest, JSON.stringify(tracks, null, 2));
  return tracks;
}

/**
 * The benchmarks' split: every 4th track is kept out of the index (music the library lacks), and
 * a track that is another's recording again is no "song outside the index": drascula's
 * track1.ogg is track30.ogg (the same music at the same times: spectral similarity 0.93 against
 * 0.38 for the same track unaligned), so it is left out.
 */
const DUPLICATES = new Map([['c15b9423e07b4110', 'ee85662ba2d15e8a']]);

export function splitTracks(all) {
  const tracks = all.filter((track) => !DUPLICATES.has(track.id));
  return {
    tracks,
    inIndex: tracks.filter((_, i) => i % 4 !== 3),
    outOfIndex: tracks.filter((_, i) => i % 4 === 3),
  };
}
