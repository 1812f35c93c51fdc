/**
 * `wcs record --server <url> --token <token>`: the uploader for a small device by the speakers (a
 * Raspberry Pi with a USB microphone). It captures with ffmpeg from ALSA, cuts chunks into a spool
 * folder on disk and sends them to the server in order with its device token, keeping them until
 * the server has them. The work is in recorder/; this file parses flags and turns Ctrl+C/SIGTERM
 * into a clean stop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { dataDirOption } from './options.js';

interface RecordOptions {
  server: string;
  token?: string;
  ca?: string;
  event?: number;
  device: string;
  input?: string;
  realtime?: boolean;
  chunkSeconds: number;
  spool?: string;
  dataDir?: string;
  drainSeconds: number;
}

const whole = (min: number, max: number, what: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(`must be ${what} from ${min} to ${max}.`);
  }
  return n;
};

const time = () => new Date().toTimeString().slice(0, 8);

/** --token, else WCS_TOKEN: the server refuses uploads without one. */
function tokenFrom(options: RecordOptions): string {
  const token = options.token ?? process.env.WCS_TOKEN;
  if (!token?.trim()) {
    throw new Error(
      'wcs record needs a device token: on the server run "wcs token create --name <device> --role dj" (or Settings, Tokens), then pass it with --token or WCS_TOKEN',
    );
  }
  return token;
}

/** --ca: the PEM file of the server's certificate (its <data dir>/tls/cert.pem under --public). */
function caFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `--ca: cannot read ${path.resolve(file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): copy the server's certificate here (<data dir>/tls/cert.pem on the server under "wcs serve --public")`,
    );
  }
}

async function recordCommand(options: RecordOptions): Promise<void> {
  const token = tokenFrom(options);
  const ca = caFrom(options.ca);
  const { runRecorder } = await import('../recorder/recorder.js');
  const dataDir = path.resolve(options.dataDir || process.env.WCS_DATA_DIR || 'data');
  const spoolDir = path.resolve(options.spool ?? path.join(dataDir, 'record-spool'));
  const stop = new AbortController();
  let signals = 0;
  const onSignal = (name: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      console.log(
        `${time()} ${name}: finishing the last chunk and uploading what is left (again to quit at once)`,
      );
      stop.abort();
    } else {
      console.log(`${time()} quitting now; unsent chunks stay in ${spoolDir}`);
      process.exit(130);
    }
  };
  const handled: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const name of handled) process.on(name, onSignal);
  try {
    const result = await runRecorder(
      {
        server: options.server,
        token,
        ca,
        spoolDir,
        source: options.input
          ? { kind: 'input', spec: options.input, realtime: options.realtime ?? false }
          : { kind: 'alsa', device: options.device },
        eventId: options.event,
        chunkSeconds: options.chunkSeconds,
        drainMs: options.drainSeconds * 1000,
        ffmpegPath: process.env.FFMPEG_PATH || 'ffmpeg',
        log: (line) => console.log(`${time()} ${line}`),
      },
      stop.signal,
    );
    process.exitCode = result.exitCode;
  } finally {
    for (const name of handled) process.off(name, onSignal);
  }
}

export function registerRecordCommand(program: Command): void {
  program
    .command('record')
    .description(
      'record the room from a device (ALSA, ffmpeg) in chunks and upload them to the server; ' +
        'unsent chunks wait on disk and are retried until the server takes them',
    )
    .requiredOption('--server <url>', 'the WCS DJ Library server, e.g. https://192.168.1.10:8080')
    .option(
      '--token <token>',
      'a device token of role dj, from "wcs token create --name <device> --role dj" on the server (default: $WCS_TOKEN)',
    )
    .option(
      '--ca <pem file>',
      'trust this certificate (only it) for an https server with a self-signed one: a copy of the server\'s <data dir>/tls/cert.pem under "wcs serve --public"',
    )
    .option(
      '--event <id>',
      'the event the recording belongs to (its id)',
      whole(1, 2 ** 31 - 1, 'an event id'),
    )
    .addOption(
      new Option('--device <alsa device>', 'ALSA capture device (see "arecord -L")')
        .default('default')
        .conflicts('input'),
    )
    .option(
      '--input <ffmpeg input>',
      'any ffmpeg input instead of ALSA, for testing and for devices without ALSA: a file, or lavfi:<filter graph> (e.g. lavfi:sine=f=440)',
    )
    .option('--realtime', 'with --input: read it at its own pace, as a live device would (ffmpeg -re)')
    .option('--chunk-seconds <n>', 'length of each chunk in seconds', whole(1, 600, 'a whole number'), 30)
    .option('--spool <dir>', 'where chunks wait until they are uploaded (default <data dir>/record-spool)')
    .addOption(dataDirOption())
    .option(
      '--drain-seconds <n>',
      'on stop, how long to keep uploading what is left before exiting',
      whole(0, 3600, 'a whole number'),
      30,
    )
    .action(recordCommand);
}
