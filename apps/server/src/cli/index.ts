import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { registerAccountCommands } from './accounts.js';
import { registerAnalyzeCommand } from './analyze.js';
import { registerDemoCommand } from './demo.js';
import { registerInteropCommands } from './interop.js';
import { registerLibraryCommand } from './library.js';
import { registerMigrateCommand } from './migrate.js';
import { registerRecognizeCommand } from './recognize.js';
import { registerRecordCommand } from './record.js';
import { registerServeCommand } from './serve.js';
import { registerWorkerCommand } from './worker.js';

/** apps/server/package.json, from src/cli and dist/cli alike. */
function packageVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The `wcs` command. Each subcommand lives in its own file here and registers itself. */
export function buildProgram(): Command {
  const program = new Command('wcs')
    .description(
      'WCS DJ Library: record the room, recognise the songs, and run a West Coast Swing DJ library.\n' +
        'Environment: WCS_DATA_DIR, DATABASE_URL, PORT, HOST, LOG_LEVEL (see README.md).',
    )
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)');
  registerServeCommand(program);
  registerWorkerCommand(program);
  registerMigrateCommand(program);
  registerLibraryCommand(program);
  registerInteropCommands(program);
  registerDemoCommand(program);
  registerAnalyzeCommand(program);
  registerRecognizeCommand(program);
  registerRecordCommand(program);
  registerAccountCommands(program);
  return program;
}

/** Runs the command line; failures print their message (no stack trace) and exit 1. */
export async function runCli(argv: string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    console.error(`wcs: ${(error as Error).message}`);
    process.exit(1);
  }
}
