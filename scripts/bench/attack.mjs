#!/usr/bin/env node
// Attack suite of issue 17 (data safety), the big run: the OpenAPI fuzz test
// (apps/server/src/routes/openapi-fuzz.int.test.ts) with many more requests, and the upload storm
// (apps/server/src/services/recordings/upload-storm.int.test.ts) with more uploaders and more kill -9 cycles.
// Each runs through Vitest with its settings in environment variables; this prints their summary
// lines (requests, 5xx, undeclared statuses, schema mismatches; acknowledged, lost, duplicated and
// retried chunks), the time and where the full output and the fuzz failure report are. The tests
// assert as in CI, but this script asserts nothing and exits 0 whatever they found.
// Usage: node scripts/bench/attack.mjs [--runs 50000] [--seed N] [--kills 10] [--uploaders 40]
//        [--only fuzz|storm]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import { ensureNodeModules, ensureSystemPackages, repoRoot } from '../ensure.mjs';

ensureNodeModules();
ensureSystemPackages(['ffmpeg']);
const arg = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
};
const runs = Number(arg('--runs', 50_000));
const seed = arg('--seed', String(17_017));
const kills = Number(arg('--kills', 10));
const uploaders = Number(arg('--uploaders', 40));
const only = arg('--only', '');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-attack-'));
const suites = [
  {
    name: 'fuzz',
    file: 'apps/server/src/routes/openapi-fuzz.int.test.ts',
    env: {
      WCS_FUZZ_RUNS: String(runs),
      WCS_FUZZ_SEED: seed,
      WCS_FUZZ_REPORT: path.join(work, 'fuzz-report.json'),
    },
  },
  {
    name: 'storm',
    file: 'apps/server/src/services/recordings/upload-storm.int.test.ts',
    env: { WCS_STORM_KILLS: String(kills), WCS_STORM_UPLOADERS: String(uploaders) },
  },
].filter((suite) => !only || suite.name === only);

for (const suite of suites) {
  const logFile = path.join(work, `${suite.name}.log`);
  const log = fs.createWriteStream(logFile);
  const startedAt = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', suite.file],
    {
      cwd: repoRoot,
      env: { ...process.env, ...suite.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      output += chunk.toString();
      log.write(chunk);
    });
  }
  const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  log.end();
  const lines = stripVTControlCharacters(output).split('\n');
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(0);
  console.log(
    `## ${suite.name} (${Object.entries(suite.env)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')})`,
  );
  // Summary lines, and the indented lines some of them carry (the lost+found listing).
  let inSummary = false;
  for (const line of lines) {
    inSummary = line.startsWith(`${suite.name}:`) || (inSummary && line.startsWith('  '));
    if (inSummary) console.log(line);
  }
  const tests = lines.find((text) => /^\s*Tests\s/.test(text));
  console.log(
    `vitest: ${tests ? tests.trim() : `no result (exit ${code})`}; ${seconds} s; output in ${logFile}`,
  );
  if (suite.name === 'fuzz' && fs.existsSync(suite.env.WCS_FUZZ_REPORT)) {
    console.log(`every fuzz failure: ${suite.env.WCS_FUZZ_REPORT}`);
  }
  console.log('');
}
