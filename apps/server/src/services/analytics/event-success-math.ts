/**
 * The pure formulas of Event success (docs/metrics.md "Event success"). Scores are percentages,
 * rounded to one decimal only when returned; none is ever NaN: no plays gives 0, and a mean or
 * standard deviation of no values is null.
 */

/** Labels of the five energy bands, in percent of the 0-1000 scale. */
export const ENERGY_BANDS_PERCENT = ['0-20', '20-40', '40-60', '60-80', '80-100'] as const;
export type EnergyBandLabel = (typeof ENERGY_BANDS_PERCENT)[number];

/** Natural logarithm of the five categories: the entropy of a perfectly even spread over five. */
const MAX_ENTROPY = Math.log(5);

export const roundToOneDecimal = (value: number) => Math.round(value * 10) / 10;

/** variety = 100 × (unique songs + unique artists) / (2 × total plays); 0 without plays. */
export function varietyScore(uniqueSongs: number, uniqueArtists: number, totalPlays: number): number {
  if (totalPlays === 0) return 0;
  return (100 * (uniqueSongs + uniqueArtists)) / (2 * totalPlays);
}

/**
 * Band of an energy on 0-1000: each band holds its lower edge, so 20 % (200) is in '20-40' and
 * 19.9 % (199) in '0-20'; 100 % (1000) belongs to the last band.
 */
export function energyBand(energy: number): EnergyBandLabel {
  const index = Math.min(Math.floor(energy / 200), ENERGY_BANDS_PERCENT.length - 1);
  return ENERGY_BANDS_PERCENT[Math.max(index, 0)]!;
}

/** Shannon entropy (natural log) of a histogram of counts; empty bins and an empty histogram add nothing. */
export function shannonEntropy(counts: number[]): number {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return 0;
  let entropy = 0;
  for (const n of counts) {
    if (n > 0) entropy -= (n / total) * Math.log(n / total);
  }
  return entropy;
}

/** balance = 100 × entropy / ln 5: 100 when five categories are equally full, 0 when one holds all. */
export function balanceScore(counts: number[]): number {
  return (100 * shannonEntropy(counts)) / MAX_ENTROPY;
}

/** Mean and population standard deviation of weighted values; null for no values. */
export function meanAndStd(values: Array<{ value: number; count: number }>): {
  mean: number | null;
  std: number | null;
} {
  const n = values.reduce((sum, { count }) => sum + count, 0);
  if (n === 0) return { mean: null, std: null };
  const mean = values.reduce((sum, { value, count }) => sum + value * count, 0) / n;
  // Two passes around the mean: no cancellation from subtracting large sums of squares.
  const variance = values.reduce((sum, { value, count }) => sum + count * (value - mean) ** 2, 0) / n;
  return { mean, std: Math.sqrt(variance) };
}

export interface EnergyDistribution {
  /** Percent, one decimal. */
  balance_score: number;
  /** Mean energy of the plays, percent, one decimal; null when no played song has an energy. */
  mean: number | null;
  /** Population standard deviation, percent, one decimal. */
  std: number | null;
  /** Plays per energy band; every band is listed. */
  histogram: Record<EnergyBandLabel, number>;
}

/**
 * Energy distribution of an event's plays from the count of plays per energy value (0-1000): a
 * song played three times counts three times; plays of songs without an energy are not given.
 */
export function energyDistribution(
  energyCounts: Array<{ energy: number; count: number }>,
): EnergyDistribution {
  const histogram = Object.fromEntries(ENERGY_BANDS_PERCENT.map((band) => [band, 0])) as Record<
    EnergyBandLabel,
    number
  >;
  for (const { energy, count } of energyCounts) histogram[energyBand(energy)] += count;
  // On the 0-1000 scale, where the values are whole numbers; one tenth of it is a percent, so
  // rounding to a whole 0-1000 unit is rounding the percentage to one decimal.
  const { mean, std } = meanAndStd(energyCounts.map(({ energy, count }) => ({ value: energy, count })));
  return {
    balance_score: roundToOneDecimal(balanceScore(Object.values(histogram))),
    mean: mean === null ? null : Math.round(mean) / 10,
    std: std === null ? null : Math.round(std) / 10,
    histogram,
  };
}

export interface GenreBalance {
  /** Percent, one decimal. */
  score: number;
  /** Genres with at least one play. */
  genre_count: number;
  /** Most played genre (ties: first in `genreOrder`); null without plays of a known genre. */
  dominant_genre: string | null;
  /** Plays per genre with plays, highest first. */
  genres: Record<string, number>;
}

/**
 * Genre balance from plays per genre (songs without a genre are left out: they are not a sixth
 * genre, and would let the score exceed 100). `genreOrder` breaks ties.
 */
export function genreBalance(
  genreCounts: Array<{ genre: string; count: number }>,
  genreOrder: readonly string[],
): GenreBalance {
  const rank = (genre: string) => {
    const index = genreOrder.indexOf(genre);
    return index === -1 ? genreOrder.length : index;
  };
  const sorted = genreCounts
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || rank(a.genre) - rank(b.genre));
  return {
    score: roundToOneDecimal(balanceScore(sorted.map(({ count }) => count))),
    genre_count: sorted.length,
    dominant_genre: sorted[0]?.genre ?? null,
    genres: Object.fromEntries(sorted.map(({ genre, count }) => [genre, count])),
  };
}

/** new song rate = 100 × new songs / unique songs; 0 without plays. */
export function newSongRate(newSongs: number, uniqueSongs: number): number {
  if (uniqueSongs === 0) return 0;
  return (100 * newSongs) / uniqueSongs;
}
