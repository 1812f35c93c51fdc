/**
 * Several processes as a deployment runs them (issue 24, docs/operations.md "Several processes"):
 * Debian's PostgreSQL and haproxy (installed with apt-get when missing), three `wcs serve`
 * processes behind the proxy on that hosted database, one shared recordings folder. A
 * browser-shaped client (HTTP uploads and the live WebSocket through the proxy, a dj's device
 * token, the page's Origin) uploads a session while two processes are killed with `kill -9` in the
 * middle of it and restarted: first another process, then the one holding the live socket, which
 * reconnects through the proxy to another. The deployment and the kill test are scripts/lib/deployment.mjs,
 * which scripts/bench/processes.mjs runs at full size; here the session is short and a chunk's
 * recognition job expires after 15 s (WCS_CHUNK_JOB_EXPIRE_SECONDS) instead of 5 minutes, so a job
 * left active by a killed process is retried within the test.
 *
 * It needs root (apt-get, and the cluster runs as the postgres user): without root it is skipped,
 * and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Audio,
  ensureDeploymentPackages,
  isRoot,
  killTest,
  type Lab,
  openLab,
} from '../../../../scripts/lib/deployment.mjs';
import { useServerProcesses } from '../test/server-process.js';

const SKIP_REASON =
  'skipped: not root. The multi-process test installs postgresql and haproxy with apt-get and runs the cluster as the postgres user; run it as root (CI does)';
if (!isRoot()) console.warn(`[multi-process.int.test] ${SKIP_REASON}`);

describe.skipIf(!isRoot())('three processes behind haproxy on a hosted PostgreSQL', () => {
  useServerProcesses();
  let lab: Lab | undefined;
  let audio: Audio;
  const log = (message: string) => process.stderr.write(`[multi-process] ${message}\n`);

  beforeAll(async () => {
    // apt-get update and install on a machine without them: minutes.
    ensureDeploymentPackages();
    lab = await openLab({ log });
    // Six 30 s chunks of two synthesised library songs played through a room.
    audio = lab.makeAudio(6);
  }, 600_000);

  afterAll(() => {
    lab?.close();
  });

  it('keeps every acknowledged chunk once, recognises the whole recording and tells the socket wherever it is, across two kill -9', async () => {
    const result = await killTest(lab!, audio, {
      processes: 3,
      killAt: [0.34, 0.67],
      killHolder: true,
      recognitionWaitSeconds: 120,
      env: { WCS_CHUNK_JOB_EXPIRE_SECONDS: '15' },
      log,
    });
    log(
      `kills ${JSON.stringify(result.kills)}; acknowledgements by process ${JSON.stringify(result.byServer)}; ` +
        `socket ${JSON.stringify(result.socket)}; settled ${result.drainSeconds.toFixed(1)} s after the last upload` +
        (result.drained ? '' : `; pending ${JSON.stringify(result.pending)}`),
    );
    expect(result.kills.map((kill) => kill.holder)).toEqual([false, true]);
    expect(result.checks.filter((check) => !check.ok)).toEqual([]);
    expect(result.checks.map((check) => check.name)).toEqual([
      'every acknowledged chunk stored exactly once',
      'no recognition failed for a missing file',
      'the recording recognised completely',
      'songs found',
      'a chunk_uploaded message on the socket for every chunk stored by an upload the client saw',
      'live messages from uploads served by other processes than the socket holder',
      'after its process was killed, the socket reconnected to another process and got every later chunk from there',
    ]);
    // The acknowledgements came from more than one process, through the proxy.
    expect(Object.keys(result.byServer).length).toBeGreaterThan(1);
  }, 300_000);
});
