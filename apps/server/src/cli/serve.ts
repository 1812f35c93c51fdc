import type { Command } from 'commander';
import type { WorkerHandle } from '../main.js';
import { type DataDirOptions, dataDirOption, overridesFrom, parseHostname, parsePort } from './options.js';

interface ServeOptions extends DataDirOptions {
  port?: number;
  host?: string;
  public?: boolean;
  hostname?: string;
  /** False with --no-jobs. */
  jobs: boolean;
}

/**
 * Runs a process started by `start` until SIGINT or SIGTERM, then shuts it down in order and exits
 * 0. A second signal exits at once (the embedded PostgreSQL still gets a shutdown request, see
 * db/embedded.ts). `wcs serve` and `wcs worker` both run this way.
 */
export async function runUntilStopped(start: () => Promise<WorkerHandle>): Promise<void> {
  let handle: WorkerHandle | undefined;
  let isStopping = false;

  const stop = async () => {
    try {
      await handle?.close();
      process.exit(0);
    } catch (error) {
      console.error(`[wcs] Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (isStopping) {
      console.error(`[wcs] ${signal} again: exiting at once.`);
      process.exit(1);
    }
    isStopping = true;
    console.log(`[wcs] ${signal}: stopping (send it again to exit at once).`);
    // During start, the stop waits until start has finished or failed.
    if (handle) void stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  handle = await start();
  if (isStopping) await stop();
}

async function serve(options: ServeOptions): Promise<void> {
  await runUntilStopped(async () => {
    // Loaded here, so `wcs --help` does not pay for Fastify and the database driver.
    const { startServer } = await import('../main.js');
    return startServer({ ...overridesFrom(options), jobs: options.jobs });
  });
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the web app and its API (and the embedded PostgreSQL unless DATABASE_URL is set)')
    .option('-p, --port <port>', 'HTTP port (default: $PORT or 8080)', parsePort)
    .option('--host <host>', 'address to listen on (default: $HOST or 127.0.0.1; 0.0.0.0 with --public)')
    .option(
      '--public',
      'for the venue: listen on every interface with TLS ($WCS_TLS_CERT/$WCS_TLS_KEY, else a self-signed certificate made once in <data dir>/tls); prints the URLs and a QR code for phones',
    )
    .option(
      '--hostname <name>',
      'the name other devices reach this server by (default: $WCS_PUBLIC_HOSTNAME): allowed as Host, printed, and put in the self-signed certificate',
      parseHostname,
    )
    .option(
      '--no-jobs',
      'HTTP only: run no background jobs and no scheduled jobs here, only queue them for `wcs worker` processes on the same database',
    )
    .addOption(dataDirOption())
    .action(serve);
}
