import fs from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { DEMO_MARKER_FILE } from '../config.js';

interface SeedOptions {
  dataDir?: string;
  seed: number;
}

/** The demo's own data folder: never the user's ./data. */
export const DEMO_DATA_DIR = 'data-demo';
/** Written into the data folder once seeding has finished (config.ts); `npm run demo` looks for it. */
export { DEMO_MARKER_FILE };
export const DEFAULT_DEMO_SEED = 1;

/**
 * The environment of the demo: the settings that could point it at the user's own data
 * (DATABASE_URL, data, recordings, playlists and library folders) are removed, so the demo
 * lives entirely in its data folder.
 */
export function demoEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _database,
    WCS_DATA_DIR: _data,
    WCS_RECORDINGS_DIR: _recordings,
    WCS_PLAYLISTS_DIR: _playlists,
    WCS_LIBRARY_ROOTS: _library,
    ...rest
  } = env;
  return rest;
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new InvalidArgumentError('must be a whole number from 0 to 4294967295.');
  }
  return seed;
}

/** `wcs demo seed`: a fresh demo data folder with its own embedded PostgreSQL. */
async function seedCommand(options: SeedOptions): Promise<void> {
  const [
    { loadConfig },
    { consoleLog, prepareDatabase },
    { createDatabase },
    { planDemoData },
    { seedDemoData },
  ] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
    import('../demo/generate.js'),
    import('../demo/seed.js'),
  ]);
  const startedAt = performance.now();
  const dataDir = path.resolve(options.dataDir ?? DEMO_DATA_DIR);
  const marker = path.join(dataDir, DEMO_MARKER_FILE);
  if (fs.existsSync(marker)) {
    throw new Error(
      `${dataDir} already holds demo data (see ${marker}). Delete the folder to seed it again.`,
    );
  }
  const config = loadConfig(demoEnv(process.env), { dataDir });
  const log = consoleLog(config);
  const database = await prepareDatabase(config, log);
  const { pool, db } = createDatabase(database.connectionString, 4);
  try {
    const now = new Date();
    log(`Seeding demo data (seed ${options.seed}) into ${dataDir}`);
    const plan = planDemoData({ seed: options.seed, now });
    log(`Planned ${plan.songs.length} songs, ${plan.events.length} events and ${plan.plays.count} plays`);
    let result: Awaited<ReturnType<typeof seedDemoData>>;
    try {
      result = await seedDemoData(
        db,
        plan,
        { libraryDir: config.libraryRoots[0]!, playlistsDir: config.playlistsDir },
        log,
      );
    } catch (error) {
      if ((error as Error).name === 'DatabaseNotEmptyError') throw error;
      throw new Error(
        `Seeding failed: ${(error as Error).message}\n${dataDir} may hold part of the demo data: delete it and run again.`,
      );
    }
    const seconds = Number(((performance.now() - startedAt) / 1000).toFixed(1));
    fs.writeFileSync(
      marker,
      `${JSON.stringify({ seed: options.seed, seededAt: now.toISOString(), seconds, ...result }, null, 2)}\n`,
    );
    log(
      `Demo data ready in ${seconds} s: ${result.songs} songs (${result.songFiles} with a file), ${result.events} events, ` +
        `${result.socials} socials, ${result.plays} plays, ${result.playlists} playlists.`,
    );
  } finally {
    await pool.end();
    await database.close();
  }
}

export function registerDemoCommand(program: Command): void {
  const demo = program.command('demo').description('demo data in a data folder of its own');
  demo
    .command('seed')
    .description(
      'generate about three years of demo events, songs and plays into an empty data folder ' +
        '(own embedded PostgreSQL; DATABASE_URL and the WCS_*_DIR variables are ignored)',
    )
    .option('--data-dir <dir>', `the demo data folder (default ./${DEMO_DATA_DIR})`)
    .option('--seed <n>', 'random seed: the same seed gives the same data', parseSeed, DEFAULT_DEMO_SEED)
    .action(seedCommand);
}
