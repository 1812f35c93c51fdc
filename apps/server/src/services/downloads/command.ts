/**
 * The external command provider (WCS_DOWNLOAD_COMMAND): the DJ's own program, run for one queue
 * entry with {artist}, {title}, {isrc} and {out} replaced inside each argument. It runs without a
 * shell (an argument array: a title such as `"; rm -rf ~` stays one argument), in its own process
 * group so a timeout stops it and whatever it started. {out} is a fresh empty folder under
 * <data>/downloads-tmp; the command writes one audio file there. Exit status 0: the file is
 * checked (deliver.ts); 3: the command found nothing (no retry); any other: an error, retried.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { insideRoot } from '../../storage/index.js';
import { type AcquiredFile, type DownloadProvider, ProviderError, type QueueItem } from './providers.js';

/** The exit status by which a command says it found nothing for the song. */
export const NOT_FOUND_EXIT = 3;
/** After SIGTERM on a timeout, how long before SIGKILL. */
const KILL_GRACE_MS = 3000;
const STDERR_KEPT = 1500;

/** The command's arguments for one entry: each placeholder replaced within its own argument. */
export function commandArguments(template: readonly string[], item: QueueItem, out: string): string[] {
  const values: Record<string, string> = {
    artist: item.artist,
    title: item.title,
    isrc: item.isrc ?? '',
    out,
  };
  // One pass per argument: a value that itself contains "{out}" is not replaced again.
  return template.map((arg) => arg.replace(/\{(artist|title|isrc|out)\}/g, (_, key: string) => values[key]!));
}

interface CommandExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  timedOut: boolean;
}

function runCommand(argv: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<CommandExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      shell: false,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      timedOut = true;
      const kill = (sig: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, sig);
        } catch {
          // Already gone.
        }
      };
      kill('SIGTERM');
      killTimer = setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(stop, timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    child.stderr.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString('utf8')).slice(-STDERR_KEPT);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      reject(error);
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal.removeEventListener('abort', stop);
      resolve({ code, signal: sig, stderr: stderr.trim(), timedOut });
    });
  });
}

/** The files the command wrote (regular files, up to two folders deep), largest first. */
async function writtenFiles(folder: string): Promise<string[]> {
  const found: { file: string; size: number }[] = [];
  const walk = async (dir: string, depth: number) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 2) await walk(full, depth + 1);
      else if (entry.isFile()) found.push({ file: full, size: (await fs.stat(full)).size });
    }
  };
  await walk(folder, 0);
  return found.sort((a, b) => b.size - a.size).map((entry) => entry.file);
}

const lastLine = (text: string) => text.split('\n').filter(Boolean).slice(-3).join(' / ');

export function commandProvider(
  config: Pick<Config, 'downloadCommand' | 'dataDir'>,
  timeoutMs: () => number,
): DownloadProvider {
  const tempRoot = path.join(config.dataDir, 'downloads-tmp');
  return {
    name: 'command',
    notConfigured: () =>
      config.downloadCommand ? null : 'WCS_DOWNLOAD_COMMAND is not set: name your own download program there',
    async find() {
      if (!config.downloadCommand) return [];
      return [{ description: `the download command (${path.basename(config.downloadCommand[0]!)})` }];
    },
    async acquire(item, _candidate, signal): Promise<AcquiredFile> {
      const template = config.downloadCommand;
      if (!template) throw new ProviderError('error', 'WCS_DOWNLOAD_COMMAND is not set', false);
      await fs.mkdir(tempRoot, { recursive: true });
      const out = await fs.mkdtemp(path.join(tempRoot, `queue-${item.queueId}-`));
      // mkdtemp's folder is ours; the check guards the recursive delete all the same.
      const cleanup = async () => {
        await fs.rm(insideRoot(tempRoot, path.relative(tempRoot, out)), { recursive: true, force: true });
      };
      try {
        const argv = commandArguments(template, item, out);
        const limit = timeoutMs();
        let exit: CommandExit;
        try {
          exit = await runCommand(argv, limit, signal);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          throw new ProviderError(
            'error',
            code === 'ENOENT'
              ? `the download command ${template[0]} was not found; check WCS_DOWNLOAD_COMMAND`
              : `the download command could not be started: ${(error as Error).message}`,
            false,
          );
        }
        if (exit.timedOut) {
          throw new ProviderError(
            'timeout',
            `the download command did not finish within ${Math.round(limit / 1000)} s and was stopped`,
            true,
          );
        }
        if (exit.code === NOT_FOUND_EXIT) {
          throw new ProviderError(
            'not_found',
            `the download command found nothing for it${exit.stderr ? `: ${lastLine(exit.stderr)}` : ''}`,
            false,
          );
        }
        if (exit.code !== 0) {
          const how = exit.code === null ? `was ended by ${exit.signal}` : `exited with status ${exit.code}`;
          throw new ProviderError(
            'error',
            `the download command ${how}${exit.stderr ? `: ${lastLine(exit.stderr)}` : ''}`,
            true,
          );
        }
        const files = await writtenFiles(out);
        if (files.length === 0) {
          throw new ProviderError(
            'unusable',
            'the download command succeeded but wrote no file into {out}',
            false,
          );
        }
        return { file: files[0]!, cleanup };
      } catch (error) {
        await cleanup();
        throw error;
      }
    },
  };
}
