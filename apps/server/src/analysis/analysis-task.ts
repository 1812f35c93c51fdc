/**
 * What the analysis threads are asked and answer (analysis-worker.ts runs them). Kept apart from
 * the worker module so importing these types never starts a thread's task loop.
 */
import type { SongAnalysis } from '../audio/analysis/index.js';

export interface AnalysisTask {
  /** Absolute path of the audio file. */
  file: string;
  /** The ffmpeg binary (config.ffmpegPath). */
  ffmpegPath: string;
}

export interface AnalysisTaskResult {
  analysis: SongAnalysis;
  /** Wall time of decoding and analysing in the thread, in milliseconds. */
  elapsedMs: number;
  /** Length of the decoded audio in seconds (for "× real time"), as the analyser reports it. */
  audioSeconds: number | null;
}
