/**
 * Short-time Fourier transform helpers shared by the onset, timbre and chroma passes. One Hann
 * window and one fft.js instance per frame size, reused across frames, so a whole song costs a
 * few thousand real FFTs and no allocation per frame.
 */
import FFT from 'fft.js';

/** The power of two nearest to `value` (at least 16), for frame sizes given in seconds. */
export function nearestPowerOfTwo(value: number): number {
  return Math.max(16, 2 ** Math.round(Math.log2(Math.max(1, value))));
}

export function hannWindow(size: number): Float64Array {
  const window = new Float64Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  return window;
}

/** Number of frames of `hop` samples for a signal of `length` samples (the last one zero-padded). */
export function frameCount(length: number, hop: number): number {
  return Math.max(1, Math.ceil(length / hop));
}

/**
 * Calls `onFrame(index, power)` for each frame of `frameSize` samples every `hop` samples, with
 * the power spectrum (|X|², bins 0..frameSize/2) of the Hann-windowed frame, normalised so a
 * full-scale sine gives about 1 in its peak bin. Frames are centred on index × hop.
 * `power` is reused between calls: copy what must outlive the callback.
 */
export function forEachPowerSpectrum(
  samples: Float32Array,
  frameSize: number,
  hop: number,
  onFrame: (index: number, power: Float64Array) => void,
): void {
  const fft = new FFT(frameSize);
  const window = hannWindow(frameSize);
  const input = new Float64Array(frameSize);
  const out = new Float64Array(frameSize * 2);
  const bins = frameSize / 2 + 1;
  const power = new Float64Array(bins);
  // Hann's coherent gain is 0.5: a sine of amplitude 1 peaks at frameSize/4 in magnitude.
  const scale = (4 / frameSize) ** 2;
  const frames = frameCount(samples.length, hop);
  const half = frameSize / 2;
  for (let f = 0; f < frames; f++) {
    const start = f * hop - half;
    for (let i = 0; i < frameSize; i++) {
      const at = start + i;
      input[i] = at >= 0 && at < samples.length ? samples[at]! * window[i]! : 0;
    }
    fft.realTransform(out, input);
    for (let k = 0; k < bins; k++) {
      const re = out[2 * k]!;
      const im = out[2 * k + 1]!;
      power[k] = (re * re + im * im) * scale;
    }
    onFrame(f, power);
  }
}

/**
 * Autocorrelation of `signal` for lags 0..maxLag through the FFT (zero-padded, so it is linear,
 * not circular), divided by the number of overlapping samples at each lag (unbiased).
 */
export function autocorrelation(signal: Float64Array, maxLag: number): Float64Array {
  const n = signal.length;
  const lags = Math.min(maxLag, n - 1) + 1;
  const size = nearestPowerOfTwo(2 ** Math.ceil(Math.log2(Math.max(4, 2 * n))));
  const fft = new FFT(size);
  const input = new Float64Array(size);
  input.set(signal);
  const spectrum = new Float64Array(size * 2);
  fft.realTransform(spectrum, input);
  fft.completeSpectrum(spectrum);
  for (let k = 0; k < size; k++) {
    const re = spectrum[2 * k]!;
    const im = spectrum[2 * k + 1]!;
    spectrum[2 * k] = re * re + im * im;
    spectrum[2 * k + 1] = 0;
  }
  const back = new Float64Array(size * 2);
  fft.inverseTransform(back, spectrum);
  const result = new Float64Array(Math.max(0, lags));
  for (let lag = 0; lag < lags; lag++) result[lag] = back[2 * lag]! / (n - lag);
  return result;
}
