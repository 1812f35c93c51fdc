// essentia.js 0.1.3 as a measuring stick for the analysis benchmarks (AGPL-3.0: installed by the
// benchmarks with npm into .cache/essentia, in no package.json, never shipped).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** essentia.js loaded from <repoRoot>/.cache/essentia (installed there first when absent). */
export function loadEssentia(repoRoot) {
  const essentiaDir = path.join(repoRoot, '.cache/essentia');
  const entry = path.join(essentiaDir, 'node_modules/essentia.js');
  if (!fs.existsSync(entry)) {
    fs.mkdirSync(essentiaDir, { recursive: true });
    console.log('npm install essentia.js@0.1.3 into .cache/essentia (AGPL: measuring stick only)');
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefix', essentiaDir, 'essentia.js@0.1.3'],
      { stdio: 'inherit' },
    );
  }
  const require = createRequire(path.join(essentiaDir, 'package.json'));
  const { Essentia, EssentiaWASM } = require('essentia.js');
  return new Essentia(EssentiaWASM);
}

/** KeyExtractor's key (profile 'bgate', its default) in our notation: 'A# major', sharps only. */
export function essentiaKey(essentia, vector) {
  const key = essentia.KeyExtractor(vector);
  const flats = { Bb: 'A#', Eb: 'D#', Ab: 'G#', Db: 'C#', Gb: 'F#' };
  return { key: `${flats[key.key] ?? key.key} ${key.scale}`, strength: key.strength };
}
