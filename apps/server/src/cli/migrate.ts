import type { Command } from 'commander';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';

/** Applies pending migrations (starting and stopping the embedded PostgreSQL if needed). */
async function migrateCommand(options: DataDirOptions): Promise<void> {
  const [{ loadConfig }, { consoleLog, prepareDatabase }] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
  ]);
  const startedAt = performance.now();
  const config = loadConfig(process.env, overridesFrom(options));
  const log = consoleLog(config);
  const database = await prepareDatabase(config, log);
  await database.close();
  log(`The database is up to date (${((performance.now() - startedAt) / 1000).toFixed(2)} s).`);
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations, then exit')
    .addOption(dataDirOption())
    .action(migrateCommand);
}
