// Several `wcs serve` processes behind haproxy on Debian's PostgreSQL, with one shared recordings
// folder (docs/operations.md, "Several processes"), for the benchmark scripts/bench/processes.mjs
// and the multi-process test apps/server/src/cli/multi-process.int.test.ts. Plain Node (the
// server's dependencies pg and ws), so a script and a test use the same code.
//
// A lab is a temporary folder with a throwaway PostgreSQL cluster of Debian's in it; deployments
// in it are databases with N processes and a proxy; `close()` kills everything it started and
// removes the folder. The kill test uploads a session through the proxy while processes are
// killed with `kill -9`, and returns its checks.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { EnsureError, ensureSystemPackages, findOnPath, postgresBin, repoRoot } from '../ensure.mjs';

export const CHUNK_SECONDS = 30;
const RATE = 22050;
const EVENT_DAY = '2026-11-21';
const T0 = Date.parse(`${EVENT_DAY}T21:00:00Z`);
const wcsBin = path.join(repoRoot, 'apps/server/bin/wcs.js');
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Packages

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Installs ffmpeg, haproxy and postgresql with apt-get when missing (ensure.mjs: as root; without
 * root it throws an EnsureError saying what to install). The cluster runs as the postgres user
 * through runuser, so this needs root in any case.
 */
export function ensureDeploymentPackages() {
  // haproxy is in /usr/sbin, which a non-login shell may leave off PATH.
  if (!process.env.PATH?.split(':').includes('/usr/sbin')) process.env.PATH = `${process.env.PATH}:/usr/sbin`;
  ensureSystemPackages(['ffmpeg', 'haproxy', 'postgresql']);
  if (!postgresBin()) throw new EnsureError('postgresql installed, but no initdb under /usr/lib/postgresql');
  if (!isRoot()) throw new EnsureError('the PostgreSQL cluster runs as the postgres user: run as root');
  if (!findOnPath('runuser')) throw new EnsureError('runuser (util-linux) is missing');
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function query(url, text, values = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
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

function wcs(args, databaseUrl) {
  return execFileSync(process.execPath, [wcsBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WCS_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .toString()
    .trim();
}

export async function waitHealthy(url, what, proc, timeoutMs = 60_000) {
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

/** Waits until every chunk is recognised and every recording processed, or the time is up. */
export async function untilDrained(databaseUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await query(
      databaseUrl,
      `select (select count(*) from recording_chunks where recognized_at is null)::int as pending,
              (select count(*) from recordings where not processed and error_message is null)::int as unprocessed`,
    );
    if (row.pending === 0 && row.unprocessed === 0) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
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

// ---------------------------------------------------------------------------------------------
// The client: uploads as the recorder does (the same chunk again until the server takes it), with
// a dj's device token and the Origin a browser on the proxy's address sends.

export async function uploadOnce(url, token, session, n, audio, eventId) {
  const form = new FormData();
  form.append(
    'metadata',
    JSON.stringify({
      session_id: session,
      chunk_number: n,
      duration_seconds: CHUNK_SECONDS,
      recorded_at: new Date(T0 + n * CHUNK_SECONDS * 1000).toISOString(),
      source: 'web_browser',
      event_id: eventId,
    }),
  );
  form.append('audio_file', new Blob([audio], { type: 'audio/webm;codecs=opus' }), `chunk-${n}.webm`);
  const response = await fetch(`${url}/api/recordings/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}`, origin: url },
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
      { headers: { authorization: `Bearer ${token}`, origin: url } },
    );
    state.socket = socket;
    socket.on('upgrade', (response) => {
      state.connections += 1;
      state.servers.push(String(response.headers['x-wcs-server'] ?? '?'));
    });
    socket.on('message', (raw) => {
      try {
        state.messages.push({
          ...JSON.parse(raw.toString()),
          via: state.servers.at(-1),
          connection: state.connections,
        });
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
  /** Whether the server greeted connection number `k` (1 is the first). */
  state.greetedOn = (k) =>
    state.messages.some((message) => message.type === 'connected' && message.connection === k);
  state.close = () => {
    state.closed = true;
    state.socket?.close();
  };
  return state;
}

// ---------------------------------------------------------------------------------------------
// haproxy

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

// ---------------------------------------------------------------------------------------------
// The lab

/**
 * A temporary folder with a PostgreSQL cluster of Debian's on a free port (as the postgres user,
 * trust authentication on 127.0.0.1). Call ensureDeploymentPackages() first. `close()` is
 * synchronous, so it may run in a process 'exit' handler.
 */
export async function openLab({ log = () => {} } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-processes-'));
  fs.chmodSync(work, 0o755); // the postgres user goes through it to its cluster
  const children = new Set();
  const bin = postgresBin();
  const pgDir = path.join(work, 'pg');
  let started = false;
  let closed = false;
  const asPostgres = (command, args) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  function close() {
    if (closed) return;
    closed = true;
    for (const child of children) {
      try {
        child.kill('SIGKILL');
      } catch {}
    }
    if (started) {
      spawnSync(
        'runuser',
        ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), 'stop', '-D', pgDir, '-m', 'immediate'],
        {
          stdio: 'ignore',
        },
      );
    }
    fs.rmSync(work, { recursive: true, force: true });
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

  let adminUrl;
  try {
    fs.mkdirSync(pgDir);
    fs.chownSync(pgDir, ...postgresIds());
    asPostgres('initdb', ['-D', pgDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const port = await freePort();
    asPostgres('pg_ctl', [
      'start',
      '-D',
      pgDir,
      '-w',
      '-l',
      path.join(pgDir, 'log'),
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300`,
    ]);
    started = true;
    const version = asPostgres('postgres', ['--version']).toString().trim();
    log(`${version} on port ${port} (${pgDir})`);
    adminUrl = `postgres://postgres@127.0.0.1:${port}`;
  } catch (error) {
    close();
    throw error;
  }

  /** The library songs in work/library, and the session's chunks (WebM/Opus 128 kbit/s, as browsers send). */
  function makeAudio(sessionChunks) {
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

  /**
   * A fresh database `name` (migrated by the first `wcs` command), a dj's token, the library
   * imported, an event; N `wcs serve` processes on it sharing one recordings and playlists folder
   * (each with its own data folder), haproxy in front; resolves once every process is up and the
   * library is fingerprinted. `env` adds variables to the processes' environment.
   */
  async function deploy(name, processCount, audio, env = {}) {
    await query(`${adminUrl}/postgres`, `create database ${name}`);
    const databaseUrl = `${adminUrl}/${name}`;
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
    const serverEnv = { ...process.env };
    for (const variable of [
      'HOST',
      'WCS_PUBLIC_HOSTNAME',
      'WCS_ALLOWED_HOSTS',
      'WCS_TLS_CERT',
      'WCS_TLS_KEY',
      'WCS_STORAGE',
    ])
      delete serverEnv[variable];
    Object.assign(serverEnv, {
      DATABASE_URL: databaseUrl,
      WCS_DATA_DIR: '',
      WCS_RECORDINGS_DIR: path.join(shared, 'recordings'),
      WCS_PLAYLISTS_DIR: path.join(shared, 'playlists'),
      WCS_SCRAPER_SCHEDULE: 'off',
      WCS_TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      ...env,
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
          serverEnv,
        );
      return { port, url: `http://127.0.0.1:${port}`, start, proc: start() };
    });
    await Promise.all(
      servers.map((server) => waitHealthy(server.url, server.proc.name, server.proc, 180_000)),
    );
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

  return { work, adminUrl, makeAudio, deploy, close };
}

// ---------------------------------------------------------------------------------------------
// The kill test

/**
 * Three (`processes`) processes behind haproxy; a browser-shaped client holds the live socket and
 * uploads `audio.chunks` as one session through the proxy while a process other than the socket's
 * is killed with `kill -9` (and restarted) at each fraction of `killAt` of the session; with
 * `killHolder`, the last kill is of the process holding the socket, which reconnects through the
 * proxy to another one before the next chunk. Failed uploads are retried as the recorder does.
 * Then waits up to `recognitionWaitSeconds` for the recording to be recognised. Returns the checks
 * (every acknowledged chunk stored exactly once, recognised completely with no chunk failed for a
 * missing file, every library song found, a live message for every chunk whichever process took
 * it and whichever holds the socket) and what happened, for a report.
 */
export async function killTest(lab, audio, options = {}) {
  const {
    processes = 3,
    killAt = [0.3, 0.65],
    killHolder = false,
    recognitionWaitSeconds = 480,
    env = {},
    name = 'wcs_kill',
    log = () => {},
  } = options;
  const sessionChunks = audio.chunks.length;
  const deployment = await lab.deploy(name, processes, audio, env);
  try {
    const { url, token, eventId, databaseUrl, servers } = deployment;
    const session = 'kill-test-night';
    const socket = liveSocket(url, token, session);
    await socket.ready();
    const holder = socket.servers[0];
    log(`live socket held by ${holder}`);
    const victims = servers.filter((server) => server.proc.name !== holder);
    const holderServer = servers.find((server) => server.proc.name === holder);
    const killPlan = new Map(
      killAt.map((fraction, i) => [
        Math.max(1, Math.min(sessionChunks - 1, Math.floor(sessionChunks * fraction))),
        killHolder && i === killAt.length - 1 ? holderServer : victims[i % victims.length],
      ]),
    );
    const attempts = [];
    const acknowledged = new Map();
    const kills = [];
    /** Chunks uploaded while the socket was down (its process killed): their messages may be gone. */
    const socketDownFor = new Set();
    /** The chunk from which the socket is on its second connection, when its holder was killed. */
    let reconnectedFrom = null;
    for (let n = 0; n < sessionChunks; n += 1) {
      const victim = killPlan.get(n);
      let killing;
      if (victim) {
        // Mid-request: the kill lands while this chunk's upload (and recognitions) are under way.
        killing = (async () => {
          await sleep(40);
          const isHolder = victim === holderServer;
          const connectionsBefore = socket.connections;
          const pid = victim.proc.child.pid;
          process.kill(pid, 'SIGKILL');
          await victim.proc.exited;
          const [jobs] = await query(
            databaseUrl,
            `select count(*) filter (where state = 'active')::int as active from pgboss.job where name = 'recording.process'`,
          );
          kills.push({ chunk: n, name: victim.proc.name, pid, activeJobs: jobs.active, holder: isHolder });
          log(
            `kill -9 ${victim.proc.name} (pid ${pid}${isHolder ? ", the live socket's" : ''}) during chunk ${n}; restarting it`,
          );
          if (isHolder) {
            socketDownFor.add(n);
            // The browser reconnects; the next chunk is uploaded once the socket is back.
            const deadline = Date.now() + 60_000;
            while (socket.connections === connectionsBefore || !socket.greetedOn(socket.connections)) {
              if (Date.now() > deadline) throw new Error('the live socket did not reconnect within 60 s');
              await sleep(50);
            }
            reconnectedFrom = n + 1;
            log(`live socket reconnected to ${socket.servers.at(-1)}`);
          }
          await sleep(1000);
          victim.proc = victim.start();
          // A start on a machine this busy may take a minute or more.
          await waitHealthy(victim.url, victim.proc.name, victim.proc, 180_000);
        })();
      }
      const outcome = await uploadWithRetries(url, token, session, n, audio.chunks[n], eventId, attempts);
      acknowledged.set(n, outcome);
      if (killing) await killing;
    }
    const uploadedAt = performance.now();
    const [recording] = await query(databaseUrl, 'select id from recordings where session_id = $1', [
      session,
    ]);
    log('uploads acknowledged; waiting for recognition');
    // A job that was running in a killed process stays active until the queue expires it.
    const drained = await untilDrained(databaseUrl, recognitionWaitSeconds * 1000);
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
    const [plays] = await query(
      databaseUrl,
      'select count(*)::int as plays, count(distinct song_id)::int as songs from plays where recording_id = $1',
      [recording.id],
    );
    const chunkMessages = socket.messages.filter((message) => message.type === 'chunk_uploaded');
    const announced = new Set(chunkMessages.map((message) => message.data.chunk_number));
    const createdAck = [...acknowledged]
      .filter(([n, outcome]) => outcome.body.created && !socketDownFor.has(n))
      .map(([n]) => n);
    // Messages the socket got from an upload that another process than its own served.
    const crossed = chunkMessages.filter(
      (message) => acknowledged.get(message.data.chunk_number)?.server !== message.via,
    );
    const afterReconnect =
      reconnectedFrom === null
        ? []
        : [...acknowledged.keys()].filter((n) => n >= reconnectedFrom && createdAck.includes(n));
    const byServer = {};
    for (const [, outcome] of acknowledged) byServer[outcome.server] = (byServer[outcome.server] ?? 0) + 1;
    const byType = {};
    for (const message of socket.messages) byType[message.type] = (byType[message.type] ?? 0) + 1;
    const stored = new Map(rows.map((row) => [row.chunk_number, row]));
    const missingFiles = rows.filter(
      (row) => !fs.existsSync(path.join(deployment.shared, 'recordings', row.file_path)),
    );
    const errors = rows.filter((row) => row.error);
    const missingFileErrors = errors.filter((row) => /missing|No such file/i.test(row.error ?? ''));
    let pending = [];
    if (!drained) {
      pending = await query(
        databaseUrl,
        `select c.chunk_number, j.state, j.started_on from recording_chunks c
           left join pgboss.job j on j.name = 'recording.process' and (j.data->>'recording_id')::int = c.recording_id
                                  and (j.data->>'chunk_number')::int = c.chunk_number
          where c.recognized_at is null order by 1`,
      );
    }

    const checks = [
      {
        name: 'every acknowledged chunk stored exactly once',
        ok:
          [...acknowledged.keys()].every((n) => stored.get(n)?.copies === 1) &&
          rows.length === acknowledged.size &&
          state.chunk_count === acknowledged.size &&
          missingFiles.length === 0,
        detail: `${acknowledged.size} acknowledged, ${rows.length} chunk rows, chunk_count ${state.chunk_count}, ${missingFiles.length} row(s) without a file`,
      },
      {
        name: 'no recognition failed for a missing file',
        ok: missingFileErrors.length === 0,
        detail: `${missingFileErrors.length} chunk(s): ${missingFileErrors.map((row) => row.error).join('; ') || 'none'}`,
      },
      {
        name: 'the recording recognised completely',
        ok:
          drained &&
          state.processed &&
          state.error_message === null &&
          rows.every((row) => row.recognised && !row.error),
        detail:
          `processed ${state.processed}, error ${JSON.stringify(state.error_message)}, ${rows.filter((row) => !row.recognised).length} chunk(s) not recognised, ` +
          `${errors.length} chunk error(s)`,
      },
      {
        name: 'songs found',
        ok: plays.songs === audio.songCount,
        detail: `${plays.songs} of ${audio.songCount} library songs played`,
      },
      {
        name: 'a chunk_uploaded message on the socket for every chunk stored by an upload the client saw',
        ok: createdAck.every((n) => announced.has(n)),
        detail:
          `${announced.size} chunk_uploaded of ${sessionChunks} chunks (${createdAck.length} acknowledged as created` +
          `${socketDownFor.size ? `, chunk ${[...socketDownFor].join(', ')} uploaded while the socket's process was down left out` : ''})`,
      },
      {
        name: 'live messages from uploads served by other processes than the socket holder',
        ok: crossed.length > 0,
        detail: `${crossed.length} of ${chunkMessages.length} chunk_uploaded came from another process's upload; socket on ${socket.servers.join(', then ')}`,
      },
    ];
    if (reconnectedFrom !== null)
      checks.push({
        name: 'after its process was killed, the socket reconnected to another process and got every later chunk from there',
        ok:
          socket.servers.length >= 2 &&
          socket.servers[1] !== holder &&
          afterReconnect.every((n) =>
            chunkMessages.some(
              (message) => message.data.chunk_number === n && message.via === socket.servers.at(-1),
            ),
          ),
        detail: `reconnected to ${socket.servers[1] ?? 'nothing'}; chunks ${afterReconnect.join(', ') || 'none'} after it`,
      });
    return {
      checks,
      ok: checks.every((check) => check.ok),
      kills,
      failedAttempts: attempts.filter((attempt) => attempt.status !== 200),
      retriedAcks: [...acknowledged]
        .filter(([n]) => attempts.filter((a) => a.chunk === n).length > 1)
        .map(([n, outcome]) => ({ chunk: n, server: outcome.server, created: outcome.body.created })),
      byServer,
      socket: { connections: socket.connections, servers: socket.servers, byType },
      drained,
      drainSeconds,
      plays,
      pending,
    };
  } finally {
    await deployment.stop();
  }
}
