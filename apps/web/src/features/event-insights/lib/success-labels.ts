import { SUCCESS_LABELS } from '@wcs/contract';

/** A verdict on one success metric: the words and how good it is (top band, middle band, lowest). */
export interface SuccessVerdict {
  label: string;
  level: 'top' | 'middle' | 'low';
}

function verdict(
  score: number,
  top: number,
  middle: number,
  labels: [string, string, string],
): SuccessVerdict {
  if (score >= top) return { label: labels[0], level: 'top' };
  if (score >= middle) return { label: labels[1], level: 'middle' };
  return { label: labels[2], level: 'low' };
}

/** Variety (unique songs and artists per play): >= 70 excellent, >= 50 good. */
export function varietyVerdict(score: number): SuccessVerdict {
  const { excellent, good } = SUCCESS_LABELS.variety;
  return verdict(score, excellent, good, ['Excellent variety', 'Good variety', 'Repetitive set']);
}

/** Energy balance (spread over the five energy bands): >= 60 well, >= 40 somewhat. */
export function energyBalanceVerdict(score: number): SuccessVerdict {
  const { well, somewhat } = SUCCESS_LABELS.energyBalance;
  return verdict(score, well, somewhat, ['Well balanced', 'Somewhat balanced', 'Narrow energy range']);
}

/** Genre balance (spread over the five genres): >= 70 well, >= 50 somewhat. */
export function genreBalanceVerdict(score: number): SuccessVerdict {
  const { well, somewhat } = SUCCESS_LABELS.genreBalance;
  return verdict(score, well, somewhat, ['Well balanced', 'Somewhat balanced', 'Dominated by few genres']);
}

/** New song rate (percent of unique songs released under 6 months before the event): >= 30 great, >= 15 moderate. */
export function newSongRateVerdict(rate: number): SuccessVerdict {
  const { great, moderate } = SUCCESS_LABELS.newSongRate;
  return verdict(rate, great, moderate, ['Great mix of new music', 'Moderate new music', 'Few new songs']);
}

/** Histogram ranges ('0-20', '20-40', ...) in ascending order of their lower bound. */
export function sortRanges<T>(histogram: Record<string, T>): [string, T][] {
  const lowerBound = (range: string) => {
    const match = /^(\d+(?:\.\d+)?)/.exec(range);
    return match ? Number(match[1]) : Number.POSITIVE_INFINITY;
  };
  return Object.entries(histogram).sort(([a], [b]) => lowerBound(a) - lowerBound(b) || a.localeCompare(b));
}
