/**
 * The module each analysis thread runs: `analyzeFile` (ffmpeg decode, then the analyser) off the
 * main thread. A file ffmpeg cannot read answers with DecodeError's message; the thread lives on
 * for the next file.
 */
import { analyzeFile } from '../audio/analysis/index.js';
import type { AnalysisTask, AnalysisTaskResult } from './analysis-task.js';
import { serveTasks } from './worker-protocol.js';

serveTasks(async (task: AnalysisTask): Promise<AnalysisTaskResult> => {
  const startedAt = performance.now();
  const analysis = await analyzeFile(task.file, { ffmpegPath: task.ffmpegPath });
  const duration = analysis.features.duration_seconds;
  return {
    analysis,
    elapsedMs: performance.now() - startedAt,
    audioSeconds: typeof duration === 'number' && Number.isFinite(duration) ? duration : null,
  };
});
