import type { PotentialDuplicate } from '@wcs/contract';
import { foldText } from '../../text.js';

/**
 * Potential duplicates of a scraped event among the product's events (docs/metrics.md "Potential
 * duplicates"): a similar name, start dates at most 30 days apart, never two different countries.
 *
 *   overall_score = 0.7 × name_similarity + 0.3 × (1 − days_apart / 30)
 *
 * listed when overall_score >= 0.6. Pure functions: the service loads the candidates.
 */

/** Start dates further apart than this are never the same event. */
export const DUPLICATE_MAX_DAYS = 30;
/** Smallest overall score that is listed. */
export const DUPLICATE_MIN_SCORE = 0.6;
export const NAME_WEIGHT = 0.7;
export const DATE_WEIGHT = 0.3;
/** A scraped event lists at most this many potential duplicates, best first. */
export const DUPLICATE_LIST_LIMIT = 10;

/** Words every second event name carries; they say nothing about which event it is. */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'wcs',
  'west',
  'coast',
  'swing',
  'festival',
  'dance',
  'the',
]);

const YEAR = /^(19|20)\d{2}$/;

/**
 * The distinctive words of an event name: lower-cased, accents folded, split on anything that is
 * not a letter or digit, years (1900-2099) and generic words removed. A name made of generic words
 * only ('WCS Festival') keeps them, so that it can still match itself: its generic words are then
 * all there is to compare.
 */
export function nameTokens(name: string): Set<string> {
  const words = foldText(name)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !YEAR.test(word));
  const distinctive = words.filter((word) => !GENERIC_WORDS.has(word));
  return new Set(distinctive.length > 0 ? distinctive : words);
}

/**
 * Name similarity, 0-1: the Sørensen-Dice coefficient of the two names' token sets,
 * 2 × |A ∩ B| / (|A| + |B|). Names without any word compare as 0.
 */
export function nameSimilarity(a: string, b: string): number {
  const left = nameTokens(a);
  const right = nameTokens(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

/** Whole days between two calendar dates (YYYY-MM-DD), without sign. */
export function daysApart(a: string, b: string): number {
  return Math.round(Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000);
}

/** overall_score = 0.7 × similarity + 0.3 × (1 − days / 30). */
export function overallScore(similarity: number, days: number): number {
  return NAME_WEIGHT * similarity + DATE_WEIGHT * (1 - days / DUPLICATE_MAX_DAYS);
}

export interface DuplicateSubject {
  name: string;
  /** YYYY-MM-DD. */
  startDate: string;
  /** ISO alpha-2, or null when unknown. */
  countryCode: string | null;
}

export interface DuplicateCandidate extends DuplicateSubject {
  id: number;
}

/** Scores are stored and shown to four decimals; the threshold is applied before rounding. */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The candidate as a potential duplicate of the subject, or null when it is not one. */
export function scoreDuplicate(
  subject: DuplicateSubject,
  candidate: DuplicateCandidate,
): PotentialDuplicate | null {
  if (subject.countryCode && candidate.countryCode && subject.countryCode !== candidate.countryCode) {
    return null;
  }
  const days = daysApart(subject.startDate, candidate.startDate);
  if (days > DUPLICATE_MAX_DAYS) return null;
  const similarity = nameSimilarity(subject.name, candidate.name);
  const score = overallScore(similarity, days);
  // Tolerance for binary fractions: 0.7 × 0.5 + 0.3 × (1 − 5/30) must count as exactly 0.6.
  if (score < DUPLICATE_MIN_SCORE - 1e-9) return null;
  return {
    event_id: candidate.id,
    event_name: candidate.name,
    overall_score: round4(score),
    name_similarity: round4(similarity),
    date_difference_days: days,
  };
}

/** Every candidate that is a potential duplicate: best score first, then the nearest date, then id. */
export function findDuplicates(
  subject: DuplicateSubject,
  candidates: readonly DuplicateCandidate[],
): PotentialDuplicate[] {
  return candidates
    .map((candidate) => scoreDuplicate(subject, candidate))
    .filter((duplicate): duplicate is PotentialDuplicate => duplicate !== null)
    .sort(
      (a, b) =>
        b.overall_score - a.overall_score ||
        a.date_difference_days - b.date_difference_days ||
        a.event_id - b.event_id,
    )
    .slice(0, DUPLICATE_LIST_LIMIT);
}
