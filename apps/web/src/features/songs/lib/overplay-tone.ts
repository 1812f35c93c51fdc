/** Colour of the overplay badge in the song modal: 80 and above red, 60-79 yellow, below 60 green. */
export const OVERPLAY_BADGE = { redFrom: 80, yellowFrom: 60 } as const;

export function overplayTone(score: number): 'error' | 'warning' | 'success' {
  if (score >= OVERPLAY_BADGE.redFrom) return 'error';
  if (score >= OVERPLAY_BADGE.yellowFrom) return 'warning';
  return 'success';
}

/** Average plays per event with one decimal; 0.0 for a song never played. */
export function playsPerEvent(totalPlays: number, totalEvents: number): string {
  return (totalEvents > 0 ? totalPlays / totalEvents : 0).toFixed(1);
}
