// Scoring of the analysis benchmark, as the MIR literature defines it: tempo Accuracy1 (within 4%)
// and Accuracy2 (within 4% of the truth or of ×2, ×3, ½, ⅓), key exact and the MIREX weighted
// score (as mir_eval.key.weighted_score: 1 same key, 0.5 the estimate a fifth above in the same
// mode, 0.3 relative, 0.2 parallel, else 0).
const PITCHES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

export function tempoAccuracy1(truth, estimate) {
  return estimate !== null && Math.abs(estimate - truth) <= 0.04 * truth;
}

export function tempoAccuracy2(truth, estimate) {
  return (
    estimate !== null && [1, 2, 3, 1 / 2, 1 / 3].some((factor) => tempoAccuracy1(truth * factor, estimate))
  );
}

function parseKey(key) {
  const [name, mode] = key.split(' ');
  return { tonic: PITCHES.indexOf(name), mode };
}

export function mirexKeyScore(truth, estimate) {
  if (!estimate) return 0;
  const ref = parseKey(truth);
  const est = parseKey(estimate);
  if (ref.tonic === est.tonic && ref.mode === est.mode) return 1;
  if (ref.mode === est.mode && (est.tonic - ref.tonic + 12) % 12 === 7) return 0.5;
  if (ref.mode === 'major' && est.mode === 'minor' && (est.tonic - ref.tonic + 12) % 12 === 9) return 0.3;
  if (ref.mode === 'minor' && est.mode === 'major' && (est.tonic - ref.tonic + 12) % 12 === 3) return 0.3;
  if (ref.tonic === est.tonic) return 0.2;
  return 0;
}
