import { describe, expect, it } from 'vitest';
import { decodeHashes, decodePeaks, encodeHashes, encodePeaks } from './store.js';

describe('fingerprint blobs', () => {
  it('round-trip hashes and peaks, also from views into larger arrays', () => {
    const hash = Int32Array.from([0, 1, 2_097_151, -5, 77]);
    const t = Int32Array.from([0, 3, 40_000, 7, 9]);
    const blob = encodeHashes({ hash: hash.subarray(1), t: t.subarray(1), count: 4 });
    expect(blob.length).toBe(32);
    expect(decodeHashes(blob)).toEqual({ hash: hash.slice(1), t: t.slice(1), count: 4 });

    const peaks = { t: Int32Array.from([1, 1, 5]), f: Float32Array.from([0.25, 17.5, 133.125]), count: 3 };
    expect(decodePeaks(encodePeaks(peaks))).toEqual(peaks);
  });

  it('decodes a blob that starts at an odd place of a larger buffer (as the driver hands them)', () => {
    const blob = encodeHashes({ hash: Int32Array.from([9, 8]), t: Int32Array.from([1, 2]), count: 2 });
    const shared = Buffer.alloc(blob.length + 3);
    blob.copy(shared, 3);
    expect(decodeHashes(shared.subarray(3))).toEqual({
      hash: Int32Array.from([9, 8]),
      t: Int32Array.from([1, 2]),
      count: 2,
    });
    expect(decodeHashes(Buffer.alloc(0)).count).toBe(0);
  });
});
