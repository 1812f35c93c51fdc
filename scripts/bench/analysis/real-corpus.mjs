// The real-music set of the analysis benchmark: produced songs (not rendered MIDI) whose tempo
// their own source files state, from Debian packages fetched with `apt-get download` into
// .cache/bench-analysis-real (ignored by git) and unpacked with `dpkg-deb -x`:
//
// - tracker modules of game soundtracks (bomberclone, ceferino, circuslinux, gweled, pingus,
//   powermanga's .zik files are XM modules, tecnoballz): tempo from the module itself (see
//   truth.mjs for the rule), rendered by ffmpeg's libopenmpt demuxer;
// - Frets on Fire songs (recorded metal/rock with vocals, by Muldjord and Sectoid): tempo from
//   the chart's MIDI tempo map; their stems (song, guitar, rhythm) are mixed into one track;
// - LMMS projects (lmms-common's demos and shorties: house, trance, reggae, reggaeton, hip hop,
//   chiptune, synth pop, made with synths, samples and effects): rendered by LMMS itself
//   (`lmms render`; run as root the script installs the Debian package lmms, else without it they
//   are left out), tempo from the project, key from the notes where they tell it (truth.mjs);
// - MIDI songs (openttd-openmsx's OpenMSX, planetblupi-music-midi) rendered by fluidsynth with
//   the General MIDI soundfont: tempo from the tempo map, key from the key signature or the notes;
// - MuseScore's demo scores (musescore3-common, and musescore-common's two that the first lacks):
//   rendered by MuseScore 3 itself (`mscore3 -o`, its own soundfont; run as root the script
//   installs the Debian package musescore3, else they are left out), tempo and key from the MIDI
//   file MuseScore exports of the score (truth.mjs; MuseScore writes every key signature "major").
//
// - ABC tunes (the examples of abcmidi and abcm2ps): each tune rendered by abc2midi (run as root
//   the script installs abcmidi) and fluidsynth, for the key alone: the tune's K: field where it
//   states one key (truth.mjs: major or minor, or a mode by its third); their tempo is not scored (abc2midi's quarter
//   note is not the beat a 6/8 jig is felt in). A tune under 30 s is played through again until it
//   lasts 30 s (since 2026-11-27; a style of its own: many are notation demonstrations of a few
//   bars), and a tune with no pitched note (drums alone) has no key truth;
// - GNU Solfege's dictation melodies (solfege: German, Polish and Norwegian folk songs, a Bach
//   invention) that state a key (\key f \major), read by solfege.mjs, rendered by fluidsynth
//   (piano) and played until they last 30 s, for the key alone (since 2026-11-27).
//
// Each case with a key says where it comes from (keySource): 'stated' by the source (ABC K:,
// Solfege \key), 'signature' (a MIDI key signature's sharps, the mode chosen by the notes) or
// 'notes' (the notes alone: LMMS projects, MIDI files without a signature).
//
// A MIDI or MuseScore song whose tempo changes but whose key is known is kept for the key only
// (bpm null: left out of the tempo scores; since 2026-11-27).
//
// Left out: songs whose tempo changes (the longest tempo lasts under 90 % of the song) and songs
// under 30 s (jingles), and modules whose notes do not follow their stated beat (truth.mjs). Every song is encoded once to
// 192 kbit/s MP3 (what a library holds) in .cache/bench-analysis-real/audio.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SOUNDFONT_CANDIDATES } from './charts.mjs';
import { notesToMidi, solfegeLessons } from './solfege.mjs';
import { abcTunes, lmmsTruth, midiTempo, moduleTempo } from './truth.mjs';

/** Bump when the corpus or its truths change: the manifest is rebuilt (audio stays cached by id). */
const CORPUS_VERSION = 11;

export const REAL_PACKAGES = [
  'bomberclone-data',
  'ceferino-data',
  'circuslinux-data',
  'gweled',
  'pingus-data',
  'powermanga-data',
  'tecnoballz-data',
  'fretsonfire-songs-muldjord',
  'fretsonfire-songs-sectoid',
  'lmms-common',
  'openttd-openmsx',
  'planetblupi-music-midi',
  'musescore3-common',
  'musescore-common',
  'abcmidi',
  'abcm2ps',
  'solfege',
];

const MODULE = /\.(mod|xm|s3m|it|zik)$/i;
const MIN_SHARE = 0.9;

/** Every file under `dir`, depth first. */
export function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export function fetchPackages(cacheDir, log, packages = REAL_PACKAGES) {
  const debs = path.join(cacheDir, 'debs');
  const unpacked = path.join(cacheDir, 'pkgs');
  fs.mkdirSync(debs, { recursive: true });
  fs.mkdirSync(unpacked, { recursive: true });
  const folders = [];
  for (const name of packages) {
    const find = () => fs.readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    let deb = find();
    if (!deb) {
      log(`apt-get download ${name}`);
      execFileSync('apt-get', ['download', name], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
      deb = find();
      if (!deb) throw new Error(`apt-get download ${name} produced no .deb`);
    }
    const target = path.join(unpacked, deb.replace(/\.deb$/, ''));
    if (!fs.existsSync(target)) execFileSync('dpkg-deb', ['-x', path.join(debs, deb), target]);
    folders.push({ name, folder: target });
  }
  return folders;
}

function duration(ffprobe, file) {
  try {
    return Number(
      String(
        execFileSync(ffprobe, ['-v', 'quiet', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]),
      ).trim(),
    );
  } catch {
    return Number.NaN;
  }
}

/**
 * The cases: { id, name, origin, style, bpm (truth), truth (how it was obtained), file (MP3) },
 * plus the songs left out and why. Listed once in <cacheDir>/manifest.json.
 */
export function buildRealCases(cacheDir, { ffmpeg = 'ffmpeg', ffprobe = 'ffprobe', log = console.log } = {}) {
  const manifest = path.join(cacheDir, 'manifest.json');
  if (fs.existsSync(manifest)) {
    const cached = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    if (cached.version === CORPUS_VERSION) return cached;
  }
  const folders = fetchPackages(cacheDir, log);
  const audioDir = path.join(cacheDir, 'audio');
  fs.mkdirSync(audioDir, { recursive: true });
  const cases = [];
  const leftOut = [];
  /** A rendered song with the tempo and key its source states, when it is at least 30 s long. */
  const keepRendered = (id, song, origin, style, found, file) => {
    const length = duration(ffprobe, file);
    if (!(length >= 30)) {
      leftOut.push({ name: song, reason: `${length.toFixed(0)} s long` });
      return;
    }
    const { detail, key, keyDetail: keyTruth, keySource } = found;
    // A tempo that changes leaves the song to the key's scores alone.
    const keyOnly = found.share < MIN_SHARE;
    const bpm = keyOnly ? null : found.bpm;
    const truth = keyOnly
      ? `${found.share > 0 ? `tempo changes (${found.share.toFixed(2)})` : 'tempo not scored'}: key only`
      : detail;
    cases.push({
      id,
      name: song,
      origin,
      style,
      bpm,
      truth,
      key,
      keyTruth,
      keySource: key ? keySource : undefined,
      file,
    });
  };
  /** A MIDI song is kept when its tempo holds, or for its key alone when it has one. */
  const midiUsable = (song, found) => {
    if (found && (found.share >= MIN_SHARE || found.key)) return true;
    leftOut.push({ name: song, reason: `tempo changes (${found?.share.toFixed(2)})` });
    return false;
  };
  /** `loops` extra plays of a single input, one after the other (a short tune played through again). */
  const encode = (id, inputs, loops = 0) => {
    const out = path.join(audioDir, `${id}.mp3`);
    if (fs.existsSync(out)) return out;
    const mix = inputs.length > 1 ? ['-filter_complex', `amix=inputs=${inputs.length}:normalize=0`] : [];
    const loop = loops > 0 ? ['-stream_loop', String(loops)] : [];
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      ...inputs.flatMap((input) => [...loop, '-i', input]),
      ...mix,
      '-t',
      '420',
      '-ar',
      '44100',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      out,
    ]);
    return out;
  };
  /** Whether `command` runs; run as root, installs the Debian package first when it does not. */
  const installed = (command, args, pkg, why) => {
    const here = () => {
      try {
        execFileSync(command, args, {
          stdio: 'ignore',
          env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
        });
        return true;
      } catch {
        return false;
      }
    };
    if (here()) return true;
    // As analysis.mjs does for mma and fluidsynth: root installs the Debian package itself.
    if (process.getuid?.() !== 0) return false;
    log(`apt-get install --no-install-recommends ${pkg} (${why})`);
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'inherit' });
    return here();
  };
  const lmms = installed('lmms', ['--allowroot', '--version'], 'lmms', 'renders the LMMS projects');
  let musescoreHere = null;
  const musescore = () => {
    musescoreHere ??= installed('mscore3', ['--version'], 'musescore3', 'renders the MuseScore demos');
    return musescoreHere;
  };
  for (const { name, folder } of folders) {
    const files = walk(folder).sort();
    if (name === 'lmms-common') {
      for (const project of files.filter((f) => /\/projects\/(demos|shorties)\/.*\.mmpz?$/.test(f))) {
        const song = path.basename(project).replace(/\.mmpz?$/, '');
        const raw = fs.readFileSync(project);
        // .mmpz is Qt's qCompress: a 4-byte length, then zlib.
        const xml = project.endsWith('.mmpz')
          ? zlib.inflateSync(raw.subarray(4)).toString('utf8')
          : raw.toString('utf8');
        const found = lmmsTruth(xml);
        if (!found) {
          leftOut.push({ name: song, reason: 'no tempo in the project' });
          continue;
        }
        if (!lmms) {
          leftOut.push({
            name: song,
            reason: 'lmms is not installed (apt-get install --no-install-recommends lmms)',
          });
          continue;
        }
        const id = createHash('sha256').update(raw).digest('hex').slice(0, 12);
        const out = path.join(audioDir, `${id}.mp3`);
        if (!fs.existsSync(out)) {
          log(`lmms render ${song}`);
          const wav = path.join(os.tmpdir(), `wcs-lmms-${id}.wav`);
          const root = process.getuid?.() === 0 ? ['--allowroot'] : [];
          try {
            execFileSync('lmms', [...root, 'render', project, '-f', 'wav', '-o', wav], { stdio: 'ignore' });
          } catch (error) {
            fs.rmSync(wav, { force: true });
            leftOut.push({
              name: song,
              reason: `lmms failed to render it (${error.signal ?? `exit ${error.status}`})`,
            });
            continue;
          }
          encode(id, [wav]);
          fs.rmSync(wav, { force: true });
        }
        keepRendered(id, song, name, 'electronic (LMMS project)', found, out);
      }
      continue;
    }
    if (name === 'openttd-openmsx' || name === 'planetblupi-music-midi') {
      const soundfont = SOUNDFONT_CANDIDATES.find((f) => fs.existsSync(f));
      for (const midi of files.filter((f) => f.endsWith('.mid'))) {
        const song = path.basename(midi, '.mid');
        const found = midiTempo(fs.readFileSync(midi));
        if (!midiUsable(song, found)) continue;
        if (!soundfont) {
          leftOut.push({
            name: song,
            reason: 'no General MIDI soundfont (apt-get install fluidsynth fluid-soundfont-gm)',
          });
          continue;
        }
        const raw = fs.readFileSync(midi);
        const id = createHash('sha256').update(raw).digest('hex').slice(0, 12);
        const out = path.join(audioDir, `${id}.mp3`);
        if (!fs.existsSync(out)) {
          log(`fluidsynth ${song}`);
          const wav = path.join(os.tmpdir(), `wcs-openmsx-${id}.wav`);
          execFileSync('fluidsynth', ['-ni', '-g', '0.6', '-r', '44100', '-F', wav, soundfont, midi], {
            stdio: 'pipe',
          });
          encode(id, [wav]);
          fs.rmSync(wav, { force: true });
        }
        const style = `MIDI songs (${name === 'openttd-openmsx' ? 'OpenMSX' : 'Planet Blupi'}, General MIDI)`;
        keepRendered(id, song, name, style, found, out);
      }
      continue;
    }
    if (name === 'musescore3-common' || name === 'musescore-common') {
      for (const score of files.filter((f) => /\/demos\/[^/]+\.msc[xz]$/.test(f))) {
        const song = path.basename(score).replace(/\.mscz?$/, '');
        // musescore-common's Reunion is musescore3-common's in the older format.
        if (cases.some((c) => c.name === song) || leftOut.some((l) => l.name === song)) continue;
        if (!musescore()) {
          leftOut.push({
            name: song,
            reason: 'MuseScore 3 is not installed (apt-get install --no-install-recommends musescore3)',
          });
          continue;
        }
        const raw = fs.readFileSync(score);
        const id = createHash('sha256').update(raw).digest('hex').slice(0, 12);
        const midi = path.join(os.tmpdir(), `wcs-musescore-${id}.mid`);
        const wav = path.join(os.tmpdir(), `wcs-musescore-${id}.wav`);
        const env = { ...process.env, QT_QPA_PLATFORM: 'offscreen' };
        try {
          log(`mscore3 ${song}`);
          execFileSync('mscore3', ['-o', midi, score], { stdio: 'ignore', env });
          const found = midiTempo(fs.readFileSync(midi));
          if (!midiUsable(song, found)) continue;
          const out = path.join(audioDir, `${id}.mp3`);
          if (!fs.existsSync(out)) {
            execFileSync('mscore3', ['-o', wav, score], { stdio: 'ignore', env });
            encode(id, [wav]);
          }
          keepRendered(id, song, name, 'scores (MuseScore demos)', found, out);
        } catch (error) {
          leftOut.push({ name: song, reason: `mscore3 failed (${error.signal ?? `exit ${error.status}`})` });
        } finally {
          fs.rmSync(midi, { force: true });
          fs.rmSync(wav, { force: true });
        }
      }
      continue;
    }
    if (name === 'abcmidi' || name === 'abcm2ps') {
      const soundfont = SOUNDFONT_CANDIDATES.find((f) => fs.existsSync(f));
      const here = soundfont && installed('abc2midi', ['-ver'], 'abcmidi', 'renders the ABC tunes');
      for (const abc of files.filter((f) => /\/examples\/[^/]+\.abc$/.test(f))) {
        for (const tune of abcTunes(fs.readFileSync(abc, 'utf8'))) {
          const song = `${path.basename(abc, '.abc')} ${tune.number} (${tune.title})`;
          if (!here) {
            leftOut.push({ name: song, reason: 'abc2midi or a General MIDI soundfont is missing' });
            continue;
          }
          const id = createHash('sha256').update(tune.text).digest('hex').slice(0, 12);
          const base = path.join(os.tmpdir(), `wcs-abc-${id}`);
          try {
            fs.writeFileSync(`${base}.abc`, tune.text);
            execFileSync('abc2midi', [`${base}.abc`, '-o', `${base}.mid`], { stdio: 'ignore' });
            const found = midiTempo(fs.readFileSync(`${base}.mid`));
            if (!found) {
              leftOut.push({ name: song, reason: 'abc2midi wrote no MIDI file we can read' });
              continue;
            }
            // The tune's K: field states the key (with its mode). The tempo is not scored: abc2midi's
            // quarter note is not the beat a 6/8 jig is felt in (its dotted quarter).
            const stated = {
              ...found,
              share: 0,
              key: tune.key,
              keyDetail: tune.keyDetail,
              keySource: 'stated',
            };
            if (!tune.key) {
              leftOut.push({ name: song, reason: `no key truth (${tune.keyDetail}); tempo not scored` });
              continue;
            }
            // A K: field over drums alone states a key nothing sounds.
            if (!found.pitchClassTime.some((t) => t > 0)) {
              leftOut.push({ name: song, reason: 'no pitched notes (drums alone): no key truth' });
              continue;
            }
            const render = () =>
              fs.existsSync(`${base}.wav`) ||
              execFileSync(
                'fluidsynth',
                ['-ni', '-g', '0.6', '-r', '44100', '-F', `${base}.wav`, soundfont, `${base}.mid`],
                { stdio: 'pipe' },
              );
            const out = path.join(audioDir, `${id}.mp3`);
            if (!fs.existsSync(out)) {
              render();
              encode(id, [`${base}.wav`]);
            }
            // A tune under 30 s is played through again until it lasts 30 s, as a tune is played
            // at a session (since 2026-11-27): its key is the same, and the key scores get the
            // ABC tunes that are only a few bars long. Kept apart as their own style.
            const length = duration(ffprobe, out);
            if (length > 0 && length < 30) {
              const plays = Math.ceil(30 / length);
              const again = createHash('sha256')
                .update(`${tune.text}\nplayed ${plays} times`)
                .digest('hex')
                .slice(0, 12);
              const looped = path.join(audioDir, `${again}.mp3`);
              if (!fs.existsSync(looped)) {
                render();
                encode(again, [`${base}.wav`], plays - 1);
              }
              keepRendered(
                again,
                `${song} ×${plays}`,
                name,
                'ABC tunes under 30 s, played until 30 s',
                stated,
                looped,
              );
              continue;
            }
            keepRendered(id, song, name, 'ABC tunes (abc2midi, General MIDI)', stated, out);
          } catch (error) {
            leftOut.push({
              name: song,
              reason: `abc2midi failed (${error.signal ?? `exit ${error.status}`})`,
            });
          } finally {
            for (const ext of ['abc', 'mid', 'wav']) fs.rmSync(`${base}.${ext}`, { force: true });
          }
        }
      }
      continue;
    }
    if (name === 'solfege') {
      // GNU Solfege's dictation melodies that state a key (\key f \major): folk songs and a Bach
      // invention, a melody alone, rendered by fluidsynth (piano) and played through again until
      // they last 30 s, for the key alone (analysis/solfege.mjs).
      const soundfont = SOUNDFONT_CANDIDATES.find((f) => fs.existsSync(f));
      const lessons = files.filter((f) =>
        /\/lesson-files\/(volkslieder1|volkslieder2|polish-folk-songs|barnesanger|jsb-inventions)$/.test(f),
      );
      for (const lesson of lessons) {
        for (const q of solfegeLessons(fs.readFileSync(lesson, 'utf8'))) {
          const song = `${path.basename(lesson)}: ${q.name}`;
          if (!q.key || q.notes.length === 0) {
            leftOut.push({ name: song, reason: 'states no key (no \\key)' });
            continue;
          }
          if (!soundfont) {
            leftOut.push({ name: song, reason: 'no General MIDI soundfont' });
            continue;
          }
          const seconds = (Math.max(...q.notes.map((n) => n.start + n.length)) * 60) / q.tempo;
          const plays = Math.max(1, Math.ceil(30 / seconds));
          const midiFile = notesToMidi(q.notes, q.tempo, { times: plays });
          const id = createHash('sha256').update(midiFile).digest('hex').slice(0, 12);
          const out = path.join(audioDir, `${id}.mp3`);
          if (!fs.existsSync(out)) {
            const base = path.join(os.tmpdir(), `wcs-solfege-${id}`);
            try {
              fs.writeFileSync(`${base}.mid`, midiFile);
              execFileSync(
                'fluidsynth',
                ['-ni', '-g', '0.6', '-r', '44100', '-F', `${base}.wav`, soundfont, `${base}.mid`],
                {
                  stdio: 'pipe',
                },
              );
              encode(id, [`${base}.wav`]);
            } finally {
              for (const ext of ['mid', 'wav']) fs.rmSync(`${base}.${ext}`, { force: true });
            }
          }
          const found = {
            bpm: q.tempo,
            share: 0,
            detail: 'Solfege lesson',
            key: q.key,
            keyDetail: `Solfege \\key ${q.key}`,
            keySource: 'stated',
          };
          keepRendered(
            id,
            plays > 1 ? `${song} ×${plays}` : song,
            name,
            'melodies (Solfege lessons, piano)',
            found,
            out,
          );
        }
      }
      continue;
    }
    if (name.startsWith('fretsonfire')) {
      for (const chart of files.filter((f) => f.endsWith('/notes.mid'))) {
        const dir = path.dirname(chart);
        const song = path.basename(dir);
        const found = midiTempo(fs.readFileSync(chart));
        if (!found || found.share < MIN_SHARE) {
          leftOut.push({ name: song, reason: `tempo changes (${found?.share.toFixed(2)})` });
          continue;
        }
        const stems = files.filter((f) => path.dirname(f) === dir && f.endsWith('.ogg'));
        const id = createHash('sha256').update(`${name}/${song}`).digest('hex').slice(0, 12);
        cases.push({
          id,
          name: song,
          origin: name,
          style: 'metal/rock (recorded)',
          bpm: found.bpm,
          truth: found.detail,
          file: encode(id, stems),
        });
      }
      continue;
    }
    for (const file of files.filter((f) => MODULE.test(f))) {
      const found = moduleTempo(fs.readFileSync(file));
      const song = path.basename(file);
      if (!found) {
        leftOut.push({ name: song, reason: 'not a module this reader knows' });
        continue;
      }
      if (found.share < MIN_SHARE) {
        leftOut.push({
          name: song,
          reason: `tempo changes (longest tempo ${(100 * found.share).toFixed(0)} %)`,
        });
        continue;
      }
      const length = duration(ffprobe, file);
      if (!(length >= 30)) {
        leftOut.push({ name: song, reason: `${length.toFixed(0)} s long` });
        continue;
      }
      if (!(found.beatRepeat > 0)) {
        leftOut.push({
          name: song,
          reason: `its notes do not repeat at the stated beat of ${found.beatRows} rows (${found.detail}; autocorrelation ${found.beatRepeat.toFixed(2)})`,
        });
        continue;
      }
      const id = createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 12);
      if (cases.some((c) => c.id === id)) continue;
      cases.push({
        id,
        name: song,
        origin: name,
        style: 'tracker module',
        bpm: found.bpm,
        truth: found.detail,
        file: encode(id, [file]),
      });
    }
  }
  if (cases.length === 0) throw new Error('no real song found (are apt-get, dpkg-deb and ffmpeg here?)');
  const result = { version: CORPUS_VERSION, cases, leftOut };
  fs.writeFileSync(manifest, JSON.stringify(result, null, 2));
  return result;
}
