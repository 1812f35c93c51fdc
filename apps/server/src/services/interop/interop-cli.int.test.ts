import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DJ_READERS } from '../../providers/dj-software/index.js';
import { sineWav } from '../../test/audio.js';
import { newDataDir, serverDir, start, useServerProcesses } from '../../test/server-process.js';

useServerProcesses();

const wcsBin = path.join(serverDir, 'bin/wcs.js');
const FIXTURES = path.resolve(import.meta.dirname, '../../providers/dj-software/fixtures');

/** Runs the built `wcs` as a user would. */
function wcs(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [wcsBin, ...args], {
      env: { ...process.env, DATABASE_URL: '', WCS_DATA_DIR: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('wcs import, wcs export and wcs library import', () => {
  it('preview a file with --dry-run --json on a stopped folder, then import and export beside the running server', async () => {
    const dataDir = newDataDir();
    const rekordbox = path.join(FIXTURES, 'rekordbox.xml');
    const dry = await wcs([
      'import',
      rekordbox,
      '--dry-run',
      '--json',
      '--time-zone',
      'Europe/Berlin',
      '--data-dir',
      dataDir,
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      dry_run: true,
      format: 'rekordbox-xml',
      tracks: 4,
      matched: 0,
      new_songs: 4,
      playlists: 3,
      history_sessions: 2,
      plays: 4,
    });

    const server = await start(dataDir);
    const token = await wcs([
      'token',
      'create',
      '--name',
      'cli-test',
      '--role',
      'viewer',
      '--data-dir',
      dataDir,
    ]);
    expect(token.code, token.stderr).toBe(0);
    const api = async (url: string) => {
      const response = await fetch(`${server.url}/api${url}`, {
        headers: { authorization: `Bearer ${token.stdout.trim()}` },
      });
      expect(response.status).toBe(200);
      return response.json() as Promise<Record<string, unknown>>;
    };

    // `wcs library import` used to stop with "Data folder is in use" here.
    const music = path.join(dataDir, 'music-in');
    await fs.mkdir(music);
    await fs.writeFile(path.join(music, 'tone.wav'), sineWav(2, 440, 16_000));
    const library = await wcs(['library', 'import', music, '--json', '--data-dir', dataDir]);
    expect(library.code, library.stderr).toBe(0);
    expect(JSON.parse(library.stdout)).toMatchObject({ scanned: 1, imported: 1 });

    const traktor = path.join(FIXTURES, 'traktor-history_2024y05m03d_21h02m10s.nml');
    const imported = await wcs([
      'import',
      traktor,
      '--json',
      '--time-zone',
      'Europe/Berlin',
      '--data-dir',
      dataDir,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      dry_run: false,
      format: 'traktor-nml',
      plays: 3,
      new_songs: 3,
    });
    expect(await api('/analytics/overview')).toMatchObject({
      total_songs: 4,
      total_plays: 3,
      total_events: 1,
    });
    const again = await wcs(['import', traktor, '--time-zone', 'Europe/Berlin', '--data-dir', dataDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Plays: added 0; skipped 3 imported before/);

    const out = path.join(dataDir, 'library.xml');
    const exported = await wcs([
      'export',
      'rekordbox-xml',
      '--out',
      out,
      '--map',
      `${music}/=C:/Music/`,
      '--data-dir',
      dataDir,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = DJ_READERS['rekordbox-xml'].read(await fs.readFile(out));
    // Only the song with a file has a location rekordbox can find.
    expect(written.tracks.map((track) => track.location)).toEqual(['C:/Music/tone.wav']);

    // One event's songs in Traktor NML: a list in an XML format, written while it is read too.
    const [event] = (await api('/events/')).data as Array<{ event_id: number }>;
    const nml = path.join(dataDir, 'night.nml');
    const night = await wcs([
      'export',
      'traktor-nml',
      '--event',
      String(event!.event_id),
      '--out',
      nml,
      '--data-dir',
      dataDir,
    ]);
    expect(night.code, night.stderr).toBe(0);
    const size = (await fs.stat(nml)).size;
    expect(night.stdout).toContain(`(traktor-nml, ${size} bytes)`);
    const list = DJ_READERS['traktor-nml'].read(await fs.readFile(nml));
    expect(list.playlists.map((playlist) => playlist.name)).toEqual([expect.stringMatching(/\(played\)$/)]);

    // A failed export leaves the file it would have replaced as it was, and nothing beside it.
    const before = await fs.readFile(out);
    const missing = await wcs([
      'export',
      'rekordbox-xml',
      '--playlist',
      '999999',
      '--out',
      out,
      '--data-dir',
      dataDir,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Playlist 999999/);
    expect((await fs.readFile(out)).equals(before)).toBe(true);
    expect((await fs.readdir(dataDir)).filter((name) => name.endsWith('.partial'))).toEqual([]);

    const refused = await wcs(['import', path.join(FIXTURES, 'README.md'), '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a DJ program's file/);
    // Two PostgreSQL starts, a server start and seven commands: more than the default 30 s on a busy machine.
  }, 180_000);
});
