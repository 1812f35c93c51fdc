#!/usr/bin/env node
// Several processes behind a proxy (issue 24, docs/operations.md "Several processes"): installs
// Debian's postgresql and haproxy when missing (as root), starts a throwaway PostgreSQL cluster of
// Debian's on a free port, builds the server, and runs N `wcs serve` processes on that database
// with one shared recordings and playlists folder, behind haproxy (round robin, health check on
// /api/health). Then:
// - the kill test: a browser-shaped client holds the live socket and uploads a session of 30 s
//   chunks through the proxy while one process is killed with `kill -9` and restarted (twice);
//   failed uploads are retried as the recorder does. It checks that every acknowledged chunk is
//   stored exactly once, that the recording is recognised completely (no chunk missing its file)
//   and that the socket got a chunk_uploaded message for every chunk, whichever process took it.
//   Exits non-zero when a check fails.
// - the throughput benchmark: for each process count, K uploaders upload for a fixed time (uploads
//   per second), then the time until every chunk is recognised (recognised audio per second), with
//   the per-core figures (the database and the proxy share the same cores).
// Everything it starts is stopped and removed on exit, failures included.
//   node scripts/bench/processes.mjs [--processes 1,2,3] [--seconds 30] [--uploaders 8]
//                                    [--chunks 20] [--recognition-wait 240] [--only kill|throughput]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { EnsureError, ensureNodeModules, ensureSystemPackages, findOnPath, repoRoot } from '../ensure.mjs';

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
// A recognition job that was running in a killed process stays active until pg-boss expires it
// (15 min by default): --recognition-wait 1000 waits for its retry.
const recognitionWait = Number(option('--recognition-wait', 240)) || 240;
if (only && only !== 'kill' && only !== 'throughput') {
  console.error('--only is kill or throughput');
  process.exit(2);
}
const KILL_PROCESSES = 3;
const RATE = 22050;
const CHUNK_SECONDS = 30;
const EVENT_DAY = '2026-11-21';
const T0 = Date.parse(`${EVENT_DAY}T21:00:00Z`);
const wcsBin = path.join(repoRoot, 'apps/server/bin/wcs.js');
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const cores = os.cpus().length;

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// ---------------------------------------------------------------------------------------------
// Clean-up: whatever happens, every child is killed and the cluster and folders removed.

const children = new Set();
let work;
let cluster; // { bin, dir }
let cleaned = false;

function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {}
  }
  if (cluster) {
    spawnSync(
      'runuser',
      [
        '-u',
        'postgres',
        '--',
        path.join(cluster.bin, 'pg_ctl'),
        'stop',
        '-D',
        cluster.dir,
        '-m',
        'immediate',
      ],
      {
        stdio: 'ignore',
      },
    );
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Set-up: packages, cluster, build.

function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

function ensurePackages() {
  ensureNodeModules();
  // haproxy is in /usr/sbin, which a non-login shell may leave off PATH.
  if (!process.env.PATH?.split(':').includes('/usr/sbin')) process.env.PATH = `${process.env.PATH}:/usr/sbin`;
  ensureSystemPackages(['ffmpeg', 'haproxy']);
  if (!postgresBin()) {
    try {
      ensureSystemPackages(['postgresql']);
    } catch (error) {
      // The package installs no `postgresql` binary, so ensure.mjs cannot tell it is there: the
      // binaries under /usr/lib/postgresql are the check.
      if (!(error instanceof EnsureError) || !postgresBin()) throw error;
    }
  }
  if (!postgresBin()) throw new EnsureError('postgresql installed, but no initdb under /usr/lib/postgresql');
  if (!findOnPath('runuser')) throw new EnsureError('runuser (util-linux) is missing');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startCluster() {
  const bin = postgresBin();
  const dir = path.join(work, 'pg');
  fs.mkdirSync(dir);
  fs.chownSync(dir, ...postgresIds());
  const asPostgres = (command, args) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  asPostgres('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  cluster = { bin, dir };
  asPostgres('pg_ctl', [
    'start',
    '-D',
    dir,
    '-w',
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300`,
  ]);
  const version = asPostgres('postgres', ['--version']).toString().trim();
  log(`${version} on port ${port} (${dir})`);
  return `postgres://postgres@127.0.0.1:${port}`;
}

function postgresIds() {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new EnsureError('no postgres user: is the postgresql package installed?');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}

async function query(url, text, values = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

function build() {
  log('building the server (tsc -b apps/server)');
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Audio: music-like synthesised songs (as apps/server/src/test/fakes/songs.ts), a "night" of them
// through a room, cut into 30 s WebM/Opus chunks, each one distinct.

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const midiHz = (midi) => 440 * 2 ** ((midi - 69) / 12);

function addNote(out, at, seconds, hz, amp, decay) {
  const start = Math.round(at * RATE);
  const length = Math.round(seconds * RATE);
  for (let i = 0; i < length && start + i < out.length; i += 1) {
    const time = i / RATE;
    const envelope = Math.min(1, time * 150) * Math.exp(-decay * time);
    let sample = 0;
    for (let harmonic = 1; harmonic <= 4; harmonic += 1)
      sample += Math.sin(2 * Math.PI * hz * harmonic * time) / harmonic;
    out[start + i] += amp * envelope * sample;
  }
}

function synthSong(seed, seconds) {
  const next = random(seed);
  const out = new Float32Array(Math.round(seconds * RATE));
  const texture = seed % 3;
  const beat = 0.4 + next() * 0.25;
  for (let t = 0; t < seconds; t += beat * 2)
    addNote(out, t, beat * 2, midiHz(36 + Math.floor(next() * 12)), 0.12, 2);
  if (texture === 0) {
    for (let voice = 0; voice < 2; voice += 1) {
      for (let t = 0; t < seconds; ) {
        const length = 0.12 + next() * 0.35;
        addNote(out, t, length + 0.3, midiHz(60 + Math.floor(next() * 30)), 0.12, 4 + next() * 5);
        t += length;
      }
    }
  } else if (texture === 1) {
    for (let t = 0; t < seconds; t += beat * 4) {
      const root = 55 + Math.floor(next() * 12);
      for (const step of [0, 4, 7]) addNote(out, t, beat * 4, midiHz(root + step), 0.07, 0.8);
      for (let a = 0; a < 8; a += 1)
        addNote(
          out,
          t + (a * beat) / 2,
          beat / 2,
          midiHz(root + 12 + [0, 4, 7, 12][a % 4] + Math.floor(next() * 3)),
          0.09,
          6,
        );
    }
  } else {
    let low = 0;
    for (let t = 0; t < seconds; t += beat / 2) {
      const start = Math.round(t * RATE);
      const length = Math.round(0.08 * RATE);
      const amp = 0.15 + next() * 0.2;
      for (let i = 0; i < length && start + i < out.length; i += 1) {
        const white = next() * 2 - 1;
        low += 0.3 * (white - low);
        out[start + i] += amp * (white - low) * Math.exp((-i / RATE) * 30);
      }
      if (next() < 0.5) addNote(out, t, beat, midiHz(64 + Math.floor(next() * 24)), 0.1, 5);
    }
  }
  let peak = 0;
  for (const sample of out) peak = Math.max(peak, Math.abs(sample));
  if (peak > 0) for (let i = 0; i < out.length; i += 1) out[i] *= 0.6 / peak;
  return out;
}

/** A microphone in a room: echoes, a gain change and noise at `snrDb`. */
function roomize(samples, snrDb) {
  const next = random(7);
  const out = new Float32Array(samples.length);
  const echoes = [
    [Math.round(0.013 * RATE), 0.4],
    [Math.round(0.031 * RATE), 0.25],
    [Math.round(0.067 * RATE), 0.15],
  ];
  let power = 0;
  for (let i = 0; i < samples.length; i += 1) {
    let value = samples[i];
    for (const [delay, gain] of echoes) if (i >= delay) value += gain * samples[i - delay];
    out[i] = value * 0.5;
    power += out[i] * out[i];
  }
  const noiseRms = Math.sqrt(power / Math.max(1, samples.length)) / 10 ** (snrDb / 20);
  for (let i = 0; i < out.length; i += 1) out[i] += noiseRms * Math.sqrt(3) * (next() * 2 - 1);
  return out;
}

function writeWav(file, samples) {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1) {
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  fs.writeFileSync(file, Buffer.concat([header, data]));
}

/** Library songs in work/library, and the session's chunks (WebM/Opus 128 kbit/s, as browsers send). */
function makeAudio() {
  const songCount = Math.ceil((sessionChunks * CHUNK_SECONDS) / 150);
  const perSong = (sessionChunks * CHUNK_SECONDS) / songCount;
  const library = path.join(work, 'library');
  fs.mkdirSync(library);
  const night = new Float32Array(sessionChunks * CHUNK_SECONDS * RATE);
  for (let s = 0; s < songCount; s += 1) {
    const song = synthSong(s + 1, perSong + 20);
    writeWav(path.join(library, `song-${s + 1}.wav`), song);
    night.set(song.subarray(0, Math.round(perSong * RATE)), Math.round(s * perSong * RATE));
  }
  const room = roomize(night, 10);
  const chunks = [];
  for (let n = 0; n < sessionChunks; n += 1) {
    const wav = path.join(work, `chunk-${n}.wav`);
    const webm = path.join(work, `chunk-${n}.webm`);
    writeWav(wav, room.subarray(n * CHUNK_SECONDS * RATE, (n + 1) * CHUNK_SECONDS * RATE));
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '128k', webm]);
    chunks.push(fs.readFileSync(webm));
  }
  log(
    `${songCount} library songs of ${perSong + 20} s, ${sessionChunks} chunks of 30 s (${(chunks[0].length / 1024).toFixed(0)} KB each)`,
  );
  return { library, songCount, chunks };
}

// ---------------------------------------------------------------------------------------------
// A deployment: one database, N processes on a shared folder, haproxy in front.

function wcs(args, databaseUrl) {
  return execFileSync(process.execPath, [wcsBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WCS_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .toString()
    .trim();
}

function haproxyConfig(frontendPort, ports) {
  // The configuration tested here, shown in docs/operations.md (TLS left to that recipe).
  return `global
	maxconn 4096

defaults
	mode http
	timeout connect 5s
	# Above WCS_REQUEST_TIMEOUT_SECONDS, so the app's own 408 comes first.
	timeout client 330s
	timeout server 330s
	# Live sockets stay open for a whole night.
	timeout tunnel 12h
	# A process that cannot be reached: the request goes to another one.
	retries 3
	option redispatch

frontend wcs
	bind 127.0.0.1:${frontendPort}
	option forwardfor
	default_backend wcs_web

backend wcs_web
	balance roundrobin
	# HTTP/1.1 with a Host the server accepts (a bare \`option httpchk GET /api/health\` sends
	# HTTP/1.0 without one: 421, and every process is marked down).
	option httpchk
	http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host localhost
	http-check expect status 200
	default-server inter 1s fall 2 rise 2
	retry-on conn-failure empty-response
	# Which process answered (the test reads it; harmless to keep).
	http-response set-header X-WCS-Server %s
${ports.map((port, i) => `\tserver web${i + 1} 127.0.0.1:${port} check`).join('\n')}
`;
}

function spawnLogged(name, command, args, env) {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-6000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });
  return { name, child, exited, output: () => output };
}

async function waitHealthy(url, what, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {}
    if (proc && proc.child.exitCode !== null)
      throw new Error(`${what} exited while starting:\n${proc.output()}`);
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not answer within ${timeoutMs / 1000} s${proc ? `:\n${proc.output()}` : ''}`,
      );
    await sleep(100);
  }
}

async function deploy(name, adminUrl, processCount, audio) {
  await query(`${adminUrl}/postgres`, `create database ${name}`);
  const databaseUrl = `${adminUrl}/${name}`;
  // Migrates the fresh database, then makes the dj's token the client sends.
  const token = wcs(['token', 'create', '--name', 'bench', '--role', 'dj'], databaseUrl);
  const imported = wcs(['library', 'import', audio.library, '--json'], databaseUrl);
  log(`library import: ${imported.replace(/\s+/g, ' ').slice(0, 200)}`);
  const [event] = await query(
    databaseUrl,
    `insert into events (name, start_date, end_date, timezone) values ('Bench Night', $1, $1, 'UTC') returning id`,
    [EVENT_DAY],
  );
  const shared = path.join(work, `${name}-shared`);
  fs.mkdirSync(shared);
  const env = { ...process.env };
  for (const variable of [
    'HOST',
    'WCS_PUBLIC_HOSTNAME',
    'WCS_ALLOWED_HOSTS',
    'WCS_TLS_CERT',
    'WCS_TLS_KEY',
    'WCS_STORAGE',
  ])
    delete env[variable];
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    WCS_DATA_DIR: '',
    WCS_RECORDINGS_DIR: path.join(shared, 'recordings'),
    WCS_PLAYLISTS_DIR: path.join(shared, 'playlists'),
    WCS_SCRAPER_SCHEDULE: 'off',
    WCS_TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
  });
  const ports = [];
  for (let i = 0; i < processCount; i += 1) ports.push(await freePort());
  const servers = ports.map((port, i) => {
    const dataDir = path.join(work, `${name}-data-${i + 1}`);
    fs.mkdirSync(dataDir);
    const start = () =>
      spawnLogged(
        `web${i + 1}`,
        process.execPath,
        [wcsBin, 'serve', '--port', String(port), '--data-dir', dataDir],
        env,
      );
    return { port, url: `http://127.0.0.1:${port}`, start, proc: start() };
  });
  await Promise.all(servers.map((server) => waitHealthy(server.url, server.proc.name, server.proc)));
  const proxyPort = await freePort();
  const cfg = path.join(work, `${name}-haproxy.cfg`);
  fs.writeFileSync(cfg, haproxyConfig(proxyPort, ports));
  execFileSync('haproxy', ['-c', '-q', '-f', cfg], { stdio: 'inherit' });
  const proxy = spawnLogged('haproxy', 'haproxy', ['-db', '-f', cfg], process.env);
  const url = `http://127.0.0.1:${proxyPort}`;
  await waitHealthy(url, 'haproxy', proxy);
  // Every server marked up by the health checks (rise 2 at 1 s) before the clients start.
  await sleep(2500);
  await waitHealthy(url, 'haproxy after its health checks', proxy, 5000);
  // The library's fingerprints are made by the processes' jobs: recognition needs them.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const [row] = await query(
      databaseUrl,
      `select count(*) filter (where fingerprint_version is null and fingerprint_error is null)::int as pending,
              count(*) filter (where fingerprint_error is not null)::int as failed from songs`,
    );
    if (row.failed > 0) throw new Error(`${row.failed} library song(s) failed to fingerprint`);
    if (row.pending === 0) break;
    if (Date.now() > deadline) throw new Error('the library songs were not fingerprinted within 180 s');
    await sleep(250);
  }
  async function stop() {
    proxy.child.kill('SIGTERM');
    for (const server of servers) server.proc.child.kill('SIGTERM');
    await Promise.all([proxy.exited, ...servers.map((server) => server.proc.exited)]);
  }
  return { databaseUrl, token, eventId: event.id, url, servers, proxy, cfg, shared, stop };
}

// ---------------------------------------------------------------------------------------------
// The client: uploads as the recorder does (the same chunk again until the server takes it).

async function uploadOnce(url, token, session, n, audio, eventId) {
  const form = new FormData();
  form.append(
    'metadata',
    JSON.stringify({
      session_id: session,
      chunk_number: n,
      duration_seconds: CHUNK_SECONDS,
      recorded_at: new Date(T0 + n * CHUNK_SECONDS * 1000).toISOString(),
      source: 'device',
      event_id: eventId,
    }),
  );
  form.append('audio_file', new Blob([audio], { type: 'audio/webm;codecs=opus' }), `chunk-${n}.webm`);
  const response = await fetch(`${url}/api/recordings/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  let body = {};
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body, server: response.headers.get('x-wcs-server') ?? '?' };
}

const retryable = (status) => status >= 500 || status === 408 || status === 429;

async function uploadWithRetries(url, token, session, n, audio, eventId, attempts) {
  for (let attempt = 1; ; attempt += 1) {
    let outcome;
    try {
      outcome = await uploadOnce(url, token, session, n, audio, eventId);
    } catch (error) {
      outcome = { status: 0, error: error.cause?.code ?? error.message };
    }
    attempts.push({ chunk: n, attempt, ...outcome });
    if (outcome.status === 200) return outcome;
    if (outcome.status !== 0 && !retryable(outcome.status))
      throw new Error(`chunk ${n}: ${outcome.status} ${JSON.stringify(outcome.body)}`);
    if (attempt >= 60) throw new Error(`chunk ${n}: still failing after 60 attempts`);
    await sleep(Math.min(2000, 250 * attempt));
  }
}

/** The live socket through the proxy, reconnected when it drops (as the browser does). */
function liveSocket(url, token, session) {
  const state = { messages: [], servers: [], connections: 0, closed: false, socket: null };
  const connect = () => {
    const socket = new WebSocket(
      `${url.replace('http', 'ws')}/api/ws/recordings/${encodeURIComponent(session)}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    state.socket = socket;
    socket.on('upgrade', (response) => {
      state.connections += 1;
      state.servers.push(String(response.headers['x-wcs-server'] ?? '?'));
    });
    socket.on('message', (raw) => {
      try {
        state.messages.push({ ...JSON.parse(raw.toString()), via: state.servers.at(-1) });
      } catch {}
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!state.closed) setTimeout(connect, 500);
    });
  };
  connect();
  state.ready = async () => {
    const deadline = Date.now() + 20_000;
    while (!state.messages.some((message) => message.type === 'connected')) {
      if (Date.now() > deadline)
        throw new Error('the live socket did not connect through the proxy within 20 s');
      await sleep(50);
    }
  };
  state.close = () => {
    state.closed = true;
    state.socket?.close();
  };
  return state;
}

async function untilDrained(databaseUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await query(
      databaseUrl,
      `select (select count(*) from recording_chunks where recognized_at is null)::int as pending,
              (select count(*) from recordings where not processed)::int as unprocessed`,
    );
    if (row.pending === 0 && row.unprocessed === 0) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------
// The kill test

async function killTest(adminUrl, audio) {
  console.log(
    `\n## Kill test: ${KILL_PROCESSES} processes behind haproxy, ${sessionChunks} chunks, kill -9 mid-session`,
  );
  const deployment = await deploy('wcs_kill', adminUrl, KILL_PROCESSES, audio);
  const { url, token, eventId, databaseUrl, servers } = deployment;
  const session = 'kill-test-night';
  const socket = liveSocket(url, token, session);
  await socket.ready();
  const holder = socket.servers[0];
  log(`live socket held by ${holder}`);
  const victims = servers.filter((server) => server.proc.name !== holder);
  const killAt = new Map([
    [Math.floor(sessionChunks * 0.3), victims[0]],
    [Math.floor(sessionChunks * 0.65), victims[1 % victims.length]],
  ]);
  const attempts = [];
  const acknowledged = new Map();
  const kills = [];
  for (let n = 0; n < sessionChunks; n += 1) {
    const victim = killAt.get(n);
    let killing;
    if (victim) {
      // Mid-request: the kill lands while this chunk's upload (and recognitions) are under way.
      killing = (async () => {
        await sleep(40);
        const pid = victim.proc.child.pid;
        process.kill(pid, 'SIGKILL');
        await victim.proc.exited;
        const [jobs] = await query(
          databaseUrl,
          `select count(*) filter (where state = 'active')::int as active from pgboss.job where name = 'recording.process'`,
        );
        kills.push({ chunk: n, name: victim.proc.name, pid, activeJobs: jobs.active });
        log(`kill -9 ${victim.proc.name} (pid ${pid}) during chunk ${n}; restarting it`);
        await sleep(1000);
        victim.proc = victim.start();
        await waitHealthy(victim.url, victim.proc.name, victim.proc);
      })();
    }
    const outcome = await uploadWithRetries(url, token, session, n, audio.chunks[n], eventId, attempts);
    acknowledged.set(n, outcome);
    if (killing) await killing;
  }
  const uploadedAt = performance.now();
  const [recording] = await query(databaseUrl, 'select id from recordings where session_id = $1', [session]);
  log('uploads acknowledged; waiting for recognition');
  // A job that was running in a killed process stays active until pg-boss expires it.
  const drained = await untilDrained(databaseUrl, recognitionWait * 1000);
  const drainSeconds = (performance.now() - uploadedAt) / 1000;
  await sleep(1500); // the last live messages
  socket.close();

  const rows = await query(
    databaseUrl,
    `select chunk_number, count(*)::int as copies, min(file_path) as file_path, bool_and(recognized_at is not null) as recognised,
            string_agg(recognition_error, '; ') as error
       from recording_chunks where recording_id = $1 group by chunk_number order by chunk_number`,
    [recording.id],
  );
  const [state] = await query(
    databaseUrl,
    'select processed, error_message, chunk_count from recordings where id = $1',
    [recording.id],
  );
  const plays = await query(
    databaseUrl,
    'select count(*)::int as plays, count(distinct song_id)::int as songs from plays where recording_id = $1',
    [recording.id],
  );
  const announced = new Set(
    socket.messages
      .filter((message) => message.type === 'chunk_uploaded')
      .map((message) => message.data.chunk_number),
  );
  const createdAck = [...acknowledged].filter(([, outcome]) => outcome.body.created).map(([n]) => n);
  const failedAttempts = attempts.filter((attempt) => attempt.status !== 200);
  const retriedAcks = [...acknowledged].filter(([n]) => attempts.filter((a) => a.chunk === n).length > 1);
  const byServer = {};
  for (const [, outcome] of acknowledged) byServer[outcome.server] = (byServer[outcome.server] ?? 0) + 1;
  const byType = {};
  for (const message of socket.messages) byType[message.type] = (byType[message.type] ?? 0) + 1;
  const stored = new Map(rows.map((row) => [row.chunk_number, row]));
  const missingFiles = rows.filter(
    (row) => !fs.existsSync(path.join(deployment.shared, 'recordings', row.file_path)),
  );

  for (const kill of kills)
    console.log(
      `- kill -9 ${kill.name} (pid ${kill.pid}) during the upload of chunk ${kill.chunk}, ${kill.activeJobs} recognition job(s) active then; restarted`,
    );
  for (const attempt of failedAttempts)
    console.log(
      `- chunk ${attempt.chunk} attempt ${attempt.attempt}: ${attempt.status || attempt.error}${attempt.server ? ` via ${attempt.server}` : ''}`,
    );
  for (const [n] of retriedAcks) {
    const outcome = acknowledged.get(n);
    console.log(`- chunk ${n} acknowledged on retry by ${outcome.server}, created: ${outcome.body.created}`);
  }
  console.log(`- acknowledgements by process: ${JSON.stringify(byServer)}`);
  console.log(
    `- live socket: connected ${socket.connections}x via ${socket.servers.join(', ')}; messages ${JSON.stringify(byType)}`,
  );
  console.log(
    `- recognition settled ${drainSeconds.toFixed(1)} s after the last acknowledgement; ${plays[0].plays} plays of ${plays[0].songs} songs (library: ${audio.songCount})`,
  );

  const checks = [
    [
      'every acknowledged chunk stored exactly once',
      [...acknowledged.keys()].every((n) => stored.get(n)?.copies === 1) &&
        rows.length === acknowledged.size &&
        state.chunk_count === acknowledged.size &&
        missingFiles.length === 0,
      `${acknowledged.size} acknowledged, ${rows.length} chunk rows, chunk_count ${state.chunk_count}, ${missingFiles.length} row(s) without a file`,
    ],
    [
      'the recording recognised completely',
      drained &&
        state.processed &&
        state.error_message === null &&
        rows.every((row) => row.recognised && !row.error),
      `processed ${state.processed}, error ${JSON.stringify(state.error_message)}, ${rows.filter((row) => !row.recognised).length} chunk(s) not recognised, ` +
        `${rows.filter((row) => row.error).length} chunk error(s)${rows.some((row) => /missing|No such file/i.test(row.error ?? '')) ? ' (a missing file!)' : ''}`,
    ],
    [
      'songs found',
      plays[0].songs === audio.songCount,
      `${plays[0].songs} of ${audio.songCount} library songs played`,
    ],
    [
      'a chunk_uploaded message on the socket for every chunk stored by an upload the client saw',
      createdAck.every((n) => announced.has(n)),
      `${announced.size} chunk_uploaded of ${sessionChunks} chunks (${createdAck.length} acknowledged as created)`,
    ],
    [
      'live messages from uploads served by other processes than the socket holder',
      [...acknowledged].some(([n, outcome]) => outcome.server !== holder && announced.has(n)),
      `socket on ${holder}`,
    ],
  ];
  if (!drained) {
    const pending = await query(
      databaseUrl,
      `select c.chunk_number, j.state, j.started_on from recording_chunks c
         left join pgboss.job j on j.name = 'recording.process' and (j.data->>'recording_id')::int = c.recording_id
                                and (j.data->>'chunk_number')::int = c.chunk_number
        where c.recognized_at is null order by 1`,
    );
    console.log(`- not recognised after ${recognitionWait} s: ${JSON.stringify(pending)}`);
    if (pending.some((row) => row.state === 'active'))
      console.log(
        '  (jobs left active by a killed process: pg-boss expires them after 15 min and retries them; --recognition-wait 1080 waits for that)',
      );
  }
  console.log('\n| check | result | detail |\n|---|---|---|');
  for (const [name, ok, detail] of checks) console.log(`| ${name} | ${ok ? 'pass' : 'FAIL'} | ${detail} |`);
  await deployment.stop();
  return checks.every(([, ok]) => ok);
}

// ---------------------------------------------------------------------------------------------
// The throughput benchmark

async function throughput(adminUrl, audio) {
  console.log(
    `\n## Throughput: ${uploaders} uploaders for ${benchSeconds} s through haproxy, then until recognition drains`,
  );
  const results = [];
  for (const count of processCounts) {
    const deployment = await deploy(`wcs_n${count}`, adminUrl, count, audio);
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
  ensurePackages();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-processes-'));
  fs.chmodSync(work, 0o755); // the postgres user goes through it to its cluster
  const haproxyVersion = execFileSync('haproxy', ['-v']).toString().split('\n')[0];
  console.log(`# Several processes behind haproxy, ${new Date().toISOString()}`);
  console.log(
    `${os.cpus()[0]?.model ?? 'cpu'}, ${cores} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB; Node ${process.version}; ${haproxyVersion}`,
  );
  const adminUrl = await startCluster();
  build();
  const audio = makeAudio();
  let ok = true;
  if (only !== 'throughput') ok = (await killTest(adminUrl, audio)) && ok;
  if (only !== 'kill') ok = (await throughput(adminUrl, audio)) && ok;
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
