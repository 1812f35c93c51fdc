#!/usr/bin/env node
// Several processes behind a proxy (issue 24, docs/operations.md "Several processes"): installs
// Debian's postgresql and haproxy when missing (as root), starts a throwaway PostgreSQL cluster of
// Debian's on a free port, builds the server, and runs N `wcs serve` processes on that database
// with one shared recordings and playlists folder, behind haproxy (round robin, health check on
// /api/health); the deployment and the kill test live in scripts/lib/deployment.mjs, shared with
// the multi-process test (apps/server/src/cli/multi-process.int.test.ts). Then:
// - the kill test: a browser-shaped client holds the live socket and uploads a session of 30 s
//   chunks through the proxy while one process is killed with `kill -9` and restarted (twice);
//   failed uploads are retried as the recorder does. It checks that every acknowledged chunk is
//   stored exactly once, that the recording is recognised completely (no chunk missing its file)
//   and that the socket got a chunk_uploaded message for every chunk, whichever process took it.
//   Exits non-zero when a check fails. The processes keep the default chunk job expiry
//   (WCS_CHUNK_JOB_EXPIRE_SECONDS, 300 s) unless --expire says otherwise.
// - the throughput benchmark: for each process count, K uploaders upload for a fixed time (uploads
//   per second), then the time until every chunk is recognised (recognised audio per second), with
//   the per-core figures (the database and the proxy share the same cores).
// Everything it starts is stopped and removed on exit, failures included.
//   node scripts/bench/processes.mjs [--processes 1,2,3] [--seconds 30] [--uploaders 8]
//                                    [--chunks 20] [--recognition-wait 480] [--expire 300]
//                                    [--kill-holder] [--only kill|throughput]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { EnsureError, ensureNodeModules, repoRoot } from '../ensure.mjs';
import {
  CHUNK_SECONDS,
  ensureDeploymentPackages,
  killTest,
  openLab,
  query,
  untilDrained,
  uploadOnce,
} from '../lib/deployment.mjs';

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}
const processCounts = String(option('--processes', '1,2,3'))
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const benchSeconds = Number(option('--seconds', 30)) || 30;
const uploaders = Number(option('--uploaders', 8)) || 8;
const sessionChunks = Number(option('--chunks', 20)) || 20;
const only = option('--only', '');
const expire = option('--expire', '');
// The second kill is of the process holding the live socket (which then reconnects to another).
const killHolder = process.argv.includes('--kill-holder');
// A recognition job that was running in a killed process stays active until the queue expires it
// (WCS_CHUNK_JOB_EXPIRE_SECONDS, 300 s, found by maintenance every 120 s): up to about 420 s.
const recognitionWait = Number(option('--recognition-wait', 480)) || 480;
if (only && only !== 'kill' && only !== 'throughput') {
  console.error('--only is kill or throughput');
  process.exit(2);
}
const cores = os.cpus().length;

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// Whatever happens, every child is killed and the cluster and folders removed.
let lab;
process.on('exit', () => lab?.close());
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    process.exit(130);
  });
}

function build() {
  log('building the server (tsc -b apps/server)');
  execFileSync(process.execPath, [`${repoRoot}/node_modules/typescript/bin/tsc`, '-b', 'apps/server'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
}

// ---------------------------------------------------------------------------------------------
// The kill test

async function runKillTest(audio) {
  console.log(
    `\n## Kill test: 3 processes behind haproxy, ${audio.chunks.length} chunks, kill -9 mid-session` +
      (expire ? ` (WCS_CHUNK_JOB_EXPIRE_SECONDS=${expire})` : ''),
  );
  const result = await killTest(lab, audio, {
    recognitionWaitSeconds: recognitionWait,
    killHolder,
    env: expire ? { WCS_CHUNK_JOB_EXPIRE_SECONDS: String(expire) } : {},
    log,
  });
  for (const kill of result.kills)
    console.log(
      `- kill -9 ${kill.name} (pid ${kill.pid}) during the upload of chunk ${kill.chunk}, ${kill.activeJobs} recognition job(s) active then; restarted`,
    );
  for (const attempt of result.failedAttempts)
    console.log(
      `- chunk ${attempt.chunk} attempt ${attempt.attempt}: ${attempt.status || attempt.error}${attempt.server ? ` via ${attempt.server}` : ''}`,
    );
  for (const retried of result.retriedAcks)
    console.log(
      `- chunk ${retried.chunk} acknowledged on retry by ${retried.server}, created: ${retried.created}`,
    );
  console.log(`- acknowledgements by process: ${JSON.stringify(result.byServer)}`);
  console.log(
    `- live socket: connected ${result.socket.connections}x via ${result.socket.servers.join(', ')}; messages ${JSON.stringify(result.socket.byType)}`,
  );
  console.log(
    `- recognition settled ${result.drainSeconds.toFixed(1)} s after the last acknowledgement; ${result.plays.plays} plays of ${result.plays.songs} songs (library: ${audio.songCount})`,
  );
  if (!result.drained)
    console.log(`- not recognised after ${recognitionWait} s: ${JSON.stringify(result.pending)}`);
  console.log('\n| check | result | detail |\n|---|---|---|');
  for (const check of result.checks)
    console.log(`| ${check.name} | ${check.ok ? 'pass' : 'FAIL'} | ${check.detail} |`);
  return result.ok;
}

// ---------------------------------------------------------------------------------------------
// The throughput benchmark

async function throughput(lab, audio) {
  console.log(
    `\n## Throughput: ${uploaders} uploaders for ${benchSeconds} s through haproxy, then until recognition drains`,
  );
  const results = [];
  for (const count of processCounts) {
    const deployment = await lab.deploy(`wcs_n${count}`, count, audio);
    const { url, token, eventId, databaseUrl } = deployment;
    log(`${count} process(es): ${uploaders} uploaders for ${benchSeconds} s (load ${loadavg()})`);
    const started = performance.now();
    const stopAt = started + benchSeconds * 1000;
    let acknowledgedCount = 0;
    let failures = 0;
    const failed = {};
    const latencies = [];
    await Promise.all(
      Array.from({ length: uploaders }, async (_, u) => {
        for (let n = 0; performance.now() < stopAt; n += 1) {
          const t0 = performance.now();
          try {
            const outcome = await uploadOnce(
              url,
              token,
              `bench-${count}-${u}`,
              n,
              audio.chunks[(n + u) % audio.chunks.length],
              eventId,
            );
            if (outcome.status === 200) {
              acknowledgedCount += 1;
              latencies.push(performance.now() - t0);
            } else {
              failures += 1;
              failed[outcome.status] = (failed[outcome.status] ?? 0) + 1;
              n -= 1;
            }
          } catch (error) {
            failures += 1;
            const code = error.cause?.code ?? error.name;
            failed[code] = (failed[code] ?? 0) + 1;
            n -= 1;
          }
        }
      }),
    );
    const uploadSeconds = (performance.now() - started) / 1000;
    const load = loadavg().split(' ')[0];
    const drained = await untilDrained(databaseUrl, 30 * 60_000);
    const drainSeconds = (performance.now() - started) / 1000;
    const [errors] = await query(
      databaseUrl,
      'select count(*)::int as n from recording_chunks where recognition_error is not null',
    );
    latencies.sort((a, b) => a - b);
    results.push({
      count,
      acknowledged: acknowledgedCount,
      failures,
      failed,
      uploadsPerSecond: acknowledgedCount / uploadSeconds,
      p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
      audioSeconds: acknowledgedCount * CHUNK_SECONDS,
      drainSeconds,
      drained,
      recognitionErrors: errors.n,
      audioPerSecond: (acknowledgedCount * CHUNK_SECONDS) / drainSeconds,
      load,
    });
    log(
      `${count} process(es): ${acknowledgedCount} uploads, drained in ${drainSeconds.toFixed(1)} s (load ${loadavg()})`,
    );
    await deployment.stop();
  }
  console.log(
    `\n| processes | uploads (failed) | uploads/s | per core | upload p50 ms | audio recognised | until drained | recognised audio s/s | per core | chunk errors | load (1 min) |\n|---|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const r of results) {
    console.log(
      `| ${r.count} | ${r.acknowledged} (${r.failures}) | ${r.uploadsPerSecond.toFixed(1)} | ${(r.uploadsPerSecond / cores).toFixed(1)} | ${r.p50.toFixed(0)} | ` +
        `${(r.audioSeconds / 60).toFixed(0)} min | ${r.drainSeconds.toFixed(0)} s${r.drained ? '' : ' (not drained)'} | ${r.audioPerSecond.toFixed(0)} | ${(r.audioPerSecond / cores).toFixed(0)} | ${r.recognitionErrors} | ${r.load} |`,
    );
  }
  for (const r of results)
    if (r.failures > 0)
      console.log(`- ${r.count} process(es), failed uploads (retried): ${JSON.stringify(r.failed)}`);
  return results.every((r) => r.drained && r.recognitionErrors === 0);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  ensureNodeModules();
  ensureDeploymentPackages();
  const haproxyVersion = execFileSync('haproxy', ['-v']).toString().split('\n')[0];
  console.log(`# Several processes behind haproxy, ${new Date().toISOString()}`);
  console.log(
    `${os.cpus()[0]?.model ?? 'cpu'}, ${cores} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB; Node ${process.version}; ${haproxyVersion}`,
  );
  lab = await openLab({ log });
  build();
  const audio = lab.makeAudio(sessionChunks);
  let ok = true;
  if (only !== 'throughput') ok = (await runKillTest(audio)) && ok;
  if (only !== 'kill') ok = (await throughput(lab, audio)) && ok;
  return ok;
}

main().then(
  (ok) => {
    if (!ok) console.log('\nA check failed.');
    process.exit(ok ? 0 : 1);
  },
  (error) => {
    if (error instanceof EnsureError) console.error(`[wcs] ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
