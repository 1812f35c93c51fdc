#!/usr/bin/env node
// Upload benchmark: starts `wcs serve` on a scratch data folder, then uploads 30 s Opus chunks
// (128 kbit/s WebM, what the browser recorder sends) one after another and prints the latency
// from request to acknowledgement (the chunk fsync'd and committed), plus the server start time.
// Usage: node scripts/bench/upload.mjs [--chunks 60]
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureNodeModules, ensureSystemPackages, repoRoot } from '../ensure.mjs';

// A fresh clone has neither the packages (tsc below) nor, perhaps, ffmpeg.
ensureNodeModules();
ensureSystemPackages(['ffmpeg']);
const chunks = Number(process.argv[process.argv.indexOf('--chunks') + 1] || 60) || 60;
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-upload-'));
fs.chmodSync(work, 0o755); // as root, PostgreSQL runs as the postgres user
const dataDir = path.join(work, 'data');
const chunkFile = path.join(work, 'chunk.webm');
execFileSync(ffmpeg, [
  '-v',
  'error',
  '-f',
  'lavfi',
  '-i',
  'anoisesrc=d=30:c=pink:a=0.3',
  '-ac',
  '1',
  '-ar',
  '48000',
  '-c:a',
  'libopus',
  '-b:a',
  '128k',
  chunkFile,
]);
const audio = fs.readFileSync(chunkFile);

execFileSync(
  process.execPath,
  [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server'],
  {
    cwd: repoRoot,
    stdio: 'inherit',
  },
);
// Uploads need a dj's token (docs/security.md): made on the stopped data folder, printed on stdout.
const token = execFileSync(
  process.execPath,
  [
    'apps/server/bin/wcs.js',
    'token',
    'create',
    '--name',
    'upload benchmark',
    '--role',
    'dj',
    '--data-dir',
    dataDir,
  ],
  { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
)
  .toString()
  .trim();
const port = 18_000 + Math.floor(Math.random() * 1000);
const startedAt = performance.now();
const server = spawn(
  process.execPath,
  ['apps/server/bin/wcs.js', 'serve', '--port', String(port), '--data-dir', dataDir],
  {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const url = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${url}/api/health`)).ok) break;
  } catch {}
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const startMs = performance.now() - startedAt;

const latencies = [];
for (let n = 0; n < chunks; n += 1) {
  const form = new FormData();
  form.append(
    'metadata',
    JSON.stringify({ session_id: 'bench', chunk_number: n, duration_seconds: 30, source: 'bench' }),
  );
  form.append('audio_file', new Blob([audio], { type: 'audio/webm;codecs=opus' }), `chunk-${n}.webm`);
  const t0 = performance.now();
  const response = await fetch(`${url}/api/recordings/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`upload ${n} failed with ${response.status}`);
  latencies.push(performance.now() - t0);
}
server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
fs.rmSync(work, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
console.log(`server start (first start, initdb included): ${startMs.toFixed(0)} ms`);
console.log(`chunk: 30 s Opus 128 kbit/s WebM, ${(audio.length / 1024).toFixed(0)} KB; ${chunks} uploads`);
console.log('| metric | ms |\n|---|---|');
for (const [name, value] of [
  ['p50', pct(50)],
  ['p95', pct(95)],
  ['max', sorted.at(-1)],
]) {
  console.log(`| upload latency ${name} | ${value.toFixed(1)} |`);
}
