import path from 'node:path';
import type { Command } from 'commander';
import type { LibraryAnalysisSummary } from '../services/library/analysis-library.js';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';
import { progressReporter } from './progress.js';

/**
 * `wcs library analyze [--outdated] [--json]`: analyses the library in this process, with a pool
 * of WCS_ANALYSIS_WORKERS threads, and stores every result as it comes. For a data folder the
 * running server holds, the server's own queue does the work (POST /api/analysis/analyze-outdated).
 */

interface AnalyzeOptions extends DataDirOptions {
  outdated?: boolean;
  json?: boolean;
}

export function summaryText(summary: LibraryAnalysisSummary, isOutdatedOnly: boolean): string {
  if (summary.songs === 0) {
    return isOutdatedOnly
      ? 'Nothing to analyse: every song with a file was analysed by the current analyser.'
      : 'Nothing to analyse: no song has a file (import a folder with `wcs library import <folder>`).';
  }
  const speed =
    summary.analyzed === 0 || summary.times_real_time === null
      ? ''
      : `, ${summary.times_real_time}× real time (${summary.times_real_time_per_thread ?? '-'}× per thread, ${summary.threads} thread(s))`;
  const lines = [
    `Analysed ${summary.analyzed} of ${summary.songs} songs in ${summary.seconds} s: ` +
      `${summary.failed.length} failed, ${summary.skipped} skipped; ` +
      `${(summary.audio_seconds / 60).toFixed(1)} min of audio${speed}.`,
    `Analyser: ${summary.analysis_version}`,
  ];
  for (const failure of summary.failed) lines.push(`  failed: ${failure.file}: ${failure.reason}`);
  return lines.join('\n');
}

async function analyzeCommand(options: AnalyzeOptions): Promise<void> {
  const [
    { loadConfig },
    { consoleLog, prepareDatabase },
    { createDatabase },
    { createJobQueue },
    { createAnalysisPool },
    analysis,
    { analyseLibrary },
  ] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
    import('../jobs/queue.js'),
    import('../analysis/pool.js'),
    import('../services/library/analysis.js'),
    import('../services/library/analysis-library.js'),
  ]);
  const config = loadConfig(process.env, overridesFrom(options));
  const log = options.json ? () => {} : consoleLog(config);

  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  try {
    database = await prepareDatabase(config, log);
  } catch (error) {
    if ((error as Error).name !== 'DataDirInUseError') throw error;
    throw new Error(
      `${(error as Error).message}\nWhile the server runs, it analyses the library itself: ` +
        `curl -X POST http://${config.host}:${config.port}/api/analysis/analyze-outdated ` +
        '(with the server’s own address and port); GET /api/analysis/status shows the progress.',
    );
  }
  const { pool, db } = createDatabase(database.connectionString, 2);
  const threads = createAnalysisPool({ size: config.analysisWorkers });
  try {
    const progress = await progressReporter(options.json ? process.stderr : process.stdout, {
      unit: 'songs',
      plainEvery: 25,
    });
    let summary: LibraryAnalysisSummary;
    try {
      summary = await analyseLibrary(
        { db, analyser: analysis.poolAnalyser(threads, config.ffmpegPath) },
        {
          isOutdatedOnly: options.outdated ?? false,
          concurrency: threads.size,
          onProgress: ({ done, total, outcome }) =>
            progress.update(
              done,
              total,
              'file' in outcome ? path.basename(outcome.file) : `song ${outcome.songId}`,
            ),
        },
      );
    } finally {
      progress.stop();
    }
    if (summary.analyzed > 0) {
      // Playlists hold analysed songs only: the server regenerates them (now, or when it next starts).
      const jobs = await createJobQueue({ connectionString: database.connectionString });
      try {
        await analysis.scheduleAfterAnalysis({ db, jobs });
      } finally {
        await jobs.stop();
      }
    }
    if (options.json) console.log(JSON.stringify(summary, null, 2));
    else console.log(summaryText(summary, options.outdated ?? false));
  } finally {
    await threads.close();
    await pool.end();
    await database.close();
  }
}

/** Adds `analyze` to the `library` command. */
export function registerLibraryAnalyzeCommand(library: Command): void {
  library
    .command('analyze')
    .description(
      'analyse the songs of the library (BPM, key, energy, danceability, valence) and store the values: ' +
        'every song with a file, or only those not analysed by the current analyser with --outdated',
    )
    .option('--outdated', 'only songs never analysed or analysed by another analyser version')
    .option('--json', 'print the summary as JSON')
    .addOption(dataDirOption())
    .action(analyzeCommand);
}
