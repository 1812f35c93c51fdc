import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Debian's chromium, with what a test run does not want (background traffic, sandbox as root). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launch options whose microphone plays `wavFile` (Chromium's fake capture device), with the
 * permission prompt answered: for `test.use({ launchOptions })` in the recording specs.
 */
export function fakeMicrophoneLaunchOptions(wavFile: string) {
  return {
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wavFile}`,
    ],
  };
}

/** The library copy of a song the microphone plays: a FLAC tagged with title and artist, by ffmpeg. */
export function writeTaggedFlac(
  wavFile: string,
  folder: string,
  tags: { title: string; artist: string },
): void {
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', wavFile],
    ...[
      '-metadata',
      `title=${tags.title}`,
      '-metadata',
      `artist=${tags.artist}`,
      path.join(folder, 'song.flac'),
    ],
  ]);
}
