import type { Command } from 'commander';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';
import { runUntilStopped } from './serve.js';

/**
 * `wcs worker`: the background jobs without HTTP (recognition of uploaded chunks, fingerprints,
 * analyses, playlists, scores, the scheduled scrape), so a deployment scales web and recognition
 * separately. The same start as `wcs serve` (migrations and start-up tasks under the start-up
 * lock); stops like it on SIGINT or SIGTERM, letting running jobs finish.
 */
async function work(options: DataDirOptions): Promise<void> {
  await runUntilStopped(async () => {
    const { startServer } = await import('../main.js');
    return startServer({ ...overridesFrom(options), http: false });
  });
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      'run the background jobs only, no HTTP (beside `wcs serve --no-jobs` processes on one DATABASE_URL and shared storage)',
    )
    .addOption(dataDirOption())
    .action(work);
}
