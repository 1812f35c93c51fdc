/**
 * `wcs analyze <file>... [--json]`: analyses audio files and prints what the analyser finds,
 * storing nothing and needing no database (benchmarks and curious DJs use it). With --json, one
 * JSON line per file; a file that cannot be read gets an "error" line, the others still run, and
 * the command exits 1 at the end if any failed.
 */
import type { Command } from 'commander';

interface AnalyzeOptions {
  json?: boolean;
}

async function analyzeCommand(files: string[], options: AnalyzeOptions): Promise<void> {
  const [{ loadConfig }, { analyzeFile }] = await Promise.all([
    import('../config.js'),
    import('../audio/analysis/index.js'),
  ]);
  const { ffmpegPath } = loadConfig(process.env);
  let failed = 0;
  for (const file of files) {
    try {
      const result = await analyzeFile(file, { ffmpegPath });
      if (options.json) {
        const {
          bpm,
          bpm_alt,
          key,
          key_confidence,
          key_uncertain,
          energy,
          danceability,
          valence,
          analysis_version,
        } = result;
        console.log(
          JSON.stringify({
            file,
            bpm,
            bpm_alt,
            key,
            key_confidence,
            key_uncertain,
            energy,
            danceability,
            valence,
            analysis_version,
          }),
        );
      } else {
        const tempo =
          result.bpm === null
            ? 'no clear tempo'
            : `${result.bpm.toFixed(1)} BPM (or ${result.bpm_alt?.toFixed(1)})`;
        const key =
          result.key === null
            ? 'no clear key'
            : `${result.key_uncertain ? 'uncertain key, best guess ' : ''}${result.key} (${result.camelot})`;
        const scores =
          result.energy === null
            ? 'silent'
            : `energy ${result.energy}, danceability ${result.danceability}, valence ${result.valence}`;
        console.log(`${file}: ${tempo}, ${key}, ${scores}`);
      }
    } catch (error) {
      failed++;
      const message = (error as Error).message;
      if (options.json) console.log(JSON.stringify({ file, error: message }));
      else console.error(`${file}: ${message}`);
    }
  }
  if (failed > 0) {
    if (!options.json) console.error(`${failed} of ${files.length} files could not be analysed.`);
    process.exitCode = 1;
  }
}

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description(
      'analyse audio files (BPM, key, energy, danceability, valence) and print the result; stores nothing',
    )
    .argument('<files...>', 'audio files to analyse')
    .option(
      '--json',
      'one JSON line per file: file, bpm, bpm_alt, key, key_confidence, key_uncertain, energy, danceability, valence, analysis_version',
    )
    .action(analyzeCommand);
}
