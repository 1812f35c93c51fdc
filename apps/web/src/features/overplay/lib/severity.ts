import { OVERPLAY } from '@wcs/contract';

export type OverplayLabel = 'Critical' | 'High' | 'Warning';

/** The warning list's label: Critical at 90 and above, High at 80 and above, otherwise Warning. */
export function overplayLabel(score: number): OverplayLabel {
  if (score >= OVERPLAY.criticalAt) return 'Critical';
  if (score >= OVERPLAY.highAt) return 'High';
  return 'Warning';
}

export const LABEL_TONES = { Critical: 'error', High: 'warning', Warning: 'info' } as const;

/** Keeps a slider value on the 50-100 scale in steps of 5 (a hand-edited URL or a stray value). */
export function clampThreshold(value: number): number {
  if (!Number.isFinite(value)) return OVERPLAY.defaultThreshold;
  const stepped = Math.round(value / OVERPLAY.sliderStep) * OVERPLAY.sliderStep;
  return Math.min(OVERPLAY.sliderMax, Math.max(OVERPLAY.sliderMin, stepped));
}
