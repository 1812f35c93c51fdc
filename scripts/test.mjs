// `npm test`: install what is missing, build, run Vitest then Playwright, and print one summary line.
// `--unit` runs Vitest only, `--e2e` Playwright only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureBuilt, ensureNodeModules, ensureSystemPackages, log, repoRoot, runMain } from './ensure.mjs';

const usage = 'usage: node scripts/test.mjs [--unit | --e2e]';

function parseArgs(argv) {
  const flags = new Set(argv);
  for (const flag of flags) {
    if (flag !== '--unit' && flag !== '--e2e') {
      console.error(`unknown argument ${flag}\n${usage}`);
      process.exit(2);
    }
  }
  const isAll = !flags.has('--unit') && !flags.has('--e2e');
  return { runsUnit: isAll || flags.has('--unit'), runsE2e: isAll || flags.has('--e2e') };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * One line per failing test, printed again after both runners so that the last lines of a long
 * run (all a CI log may keep) say which test failed and why.
 */
function failureLine(where, name, message) {
  const firstLine = stripVTControlCharacters(message ?? '')
    .split('\n')
    .find((line) => line.trim() !== '');
  return `  ${where} > ${name}${firstLine ? `\n      ${firstLine.trim().slice(0, 300)}` : ''}`;
}

/** Runs a test runner in the foreground; returns its exit code (null when it could not start). */
function runRunner(command, args, env = process.env) {
  log(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env });
  if (result.error) console.error(`[wcs] ${command} could not start: ${result.error.message}`);
  return result.error ? null : (result.status ?? 1);
}

function runVitest(reportDir) {
  const outputFile = path.join(reportDir, 'vitest.json');
  const code = runRunner('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${outputFile}`,
  ]);
  const report = readJson(outputFile);
  // A file that fails to load (syntax, import, a hook) has no failed test, yet hides its tests:
  // count it as one failure so the summary never reads "0 failed" for a red run.
  const brokenFiles = (report?.testResults ?? []).filter(
    (file) => file.status === 'failed' && !file.assertionResults?.some((test) => test.status === 'failed'),
  ).length;
  const failures = [];
  for (const file of report?.testResults ?? []) {
    const where = path.relative(repoRoot, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests)
      failures.push(failureLine(where, test.fullName, test.failureMessages?.[0]));
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(failureLine(where, '(file did not run)', file.message));
  }
  return {
    name: 'vitest',
    code,
    failures,
    hasReport: report !== null,
    passed: report?.numPassedTests ?? 0,
    failed: (report?.numFailedTests ?? 0) + brokenFiles,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
  };
}

function runPlaywright(reportDir) {
  const outputFile = path.join(reportDir, 'playwright.json');
  // e2e/playwright.config.ts adds the json reporter when this variable names a file.
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: outputFile };
  const code = runRunner('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], env);
  const report = readJson(outputFile);
  const stats = report?.stats;
  const failures = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(failureLine(`${spec.file}:${spec.line}`, `[${test.projectName}] ${spec.title}`, error));
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report?.suites ?? []) visit(suite);
  for (const error of report?.errors ?? [])
    failures.push(failureLine('playwright', '(outside any test)', error.message));
  return {
    name: 'playwright',
    code,
    failures,
    hasReport: stats !== undefined,
    // With retries 0 nothing is flaky; if retries come back, a test that passed on retry passed.
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    // Errors outside any test (a spec that fails to load, a failing web server) count as failures.
    failed: (stats?.unexpected ?? 0) + (report?.errors?.length ?? 0),
    skipped: stats?.skipped ?? 0,
  };
}

runMain(async () => {
  const { runsUnit, runsE2e } = parseArgs(process.argv.slice(2));
  const startedAt = performance.now();

  ensureNodeModules();
  ensureSystemPackages(runsE2e ? ['chromium', 'ffmpeg'] : ['ffmpeg']);
  ensureBuilt();

  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-test-'));
  const results = [];
  try {
    // Playwright runs even when Vitest failed, so one run shows every failure.
    if (runsUnit) results.push(runVitest(reportDir));
    if (runsE2e) results.push(runPlaywright(reportDir));
  } finally {
    fs.rmSync(reportDir, { recursive: true, force: true });
  }

  let hasRunnerFailure = false;
  for (const result of results) {
    if (result.code === 0 && result.hasReport) continue;
    if (result.code !== 0 && result.failed > 0) continue; // failing tests: counted below
    hasRunnerFailure = true;
    console.error(
      `[wcs] ${result.name} did not complete (exit code ${result.code ?? 'none'}` +
        `${result.hasReport ? '' : ', no report written'})`,
    );
  }

  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  const skipped = results.reduce((sum, result) => sum + result.skipped, 0);
  const failures = results.flatMap((result) => result.failures ?? []);
  if (failures.length > 0) console.log(`failed tests:\n${failures.join('\n')}`);
  log(`finished in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  if (failed > 0 || hasRunnerFailure) process.exitCode = 1;
});
