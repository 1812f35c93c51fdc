// Types of fft.js 4 (Fedor Indutny's radix-4 FFT; it ships no declarations). Arrays interleave
// real and imaginary parts: [re0, im0, re1, im1, ...].
declare module 'fft.js' {
  export default class FFT {
    /** size: a power of two, at least 4. */
    constructor(size: number);
    readonly size: number;
    createComplexArray(): number[];
    toComplexArray(input: ArrayLike<number>, storage?: number[]): number[];
    fromComplexArray(complex: ArrayLike<number>, storage?: number[]): number[];
    /** Complex FFT of `data` into `out`. */
    transform(out: number[] | Float64Array, data: ArrayLike<number>): void;
    inverseTransform(out: number[] | Float64Array, data: ArrayLike<number>): void;
    /** FFT of a real signal; fills only the first half of `out` (call completeSpectrum for all of it). */
    realTransform(out: number[] | Float64Array, data: ArrayLike<number>): void;
    completeSpectrum(spectrum: number[] | Float64Array): void;
  }
}
