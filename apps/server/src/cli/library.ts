import path from 'node:path';
import type { Command } from 'commander';
import type { LibraryImportSummary } from '../services/library/library-import.js';
import { registerLibraryAnalyzeCommand } from './library-analyze.js';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';
import { progressReporter } from './progress.js';

interface ImportOptions extends DataDirOptions {
  json?: boolean;
}

function summaryText(folder: string, summary: LibraryImportSummary, seconds: string): string {
  const lines = [
    `Scanned ${summary.scanned} audio files in ${folder} (${seconds} s): ${summary.imported} imported, ` +
      `${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.missing_marked} marked missing, ` +
      `${summary.failed.length} failed.`,
  ];
  for (const failure of summary.failed) lines.push(`  failed: ${failure.file}: ${failure.reason}`);
  return lines.join('\n');
}

/**
 * `wcs library import <folder>`: any folder the user names; paths are stored absolute. Works
 * whether or not a server runs on the data folder.
 */
async function importCommand(folder: string, options: ImportOptions): Promise<void> {
  const [
    { loadConfig },
    { attachDatabase, consoleLog },
    { createDatabase },
    { createJobQueue },
    library,
    { songImportedHooks },
    scores,
    analysis,
  ] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
    import('../jobs/queue.js'),
    import('../services/library/library-import.js'),
    import('../services/library/library-pipeline.js'),
    import('../services/recompute-schedule.js'),
    import('../services/library/analysis.js'),
  ]);
  const startedAt = performance.now();
  const config = loadConfig(process.env, overridesFrom(options));
  const log = options.json ? () => {} : consoleLog(config);
  const absoluteFolder = path.resolve(folder);

  // Beside a running server, its PostgreSQL (the import's advisory lock keeps the two from
  // importing at once); otherwise the data folder's own, started for this command.
  const database = await attachDatabase(config, log);
  const { pool, db } = createDatabase(database.connectionString, 2);
  // Each imported or changed file is fingerprinted before the next one (the bar counts both); a file
  // whose content changed loses its analysis version, and the outdated are queued after the import.
  const hooks = songImportedHooks({ db, config });
  try {
    const progress = await progressReporter(options.json ? process.stderr : process.stdout, {
      unit: 'files read and fingerprinted',
      plainEvery: 50,
    });
    let summary: LibraryImportSummary;
    try {
      summary = await library.importLibraryFolder(db, absoluteFolder, {
        hooks,
        onProgress: ({ done, total, file }) => progress.update(done, total, path.basename(file)),
      });
    } finally {
      progress.stop();
    }
    if (library.hasImportChanges(summary)) {
      // The server's worker runs the recompute and the analyses (now if it is running, else when
      // it next starts).
      const jobs = await createJobQueue({ connectionString: database.connectionString });
      try {
        await scores.scheduleScoreRecompute(jobs, 'library import');
        await analysis.queueOutdatedAnalyses({ db, jobs }, 'import');
      } finally {
        await jobs.stop();
      }
    }
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    if (options.json) console.log(JSON.stringify(summary, null, 2));
    else console.log(summaryText(absoluteFolder, summary, seconds));
  } finally {
    await pool.end();
    await database.close();
  }
}

export function registerLibraryCommand(program: Command): void {
  const library = program.command('library').description('the song library on disk');
  library
    .command('import')
    .description(
      'import every audio file under a folder (mp3, flac, ogg, opus, m4a, aac, wav, aiff): new files become songs, ' +
        'moved files keep their song, files gone from the folder are marked missing',
    )
    .argument('<folder>', 'the folder to import (any folder; stored as absolute paths)')
    .option('--json', 'print the summary as JSON')
    .addOption(dataDirOption())
    .action(importCommand);
  registerLibraryAnalyzeCommand(library);
}
