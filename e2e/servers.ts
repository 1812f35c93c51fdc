import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The two servers of the end-to-end run and the accounts the suite signs in with. The config
 * starts the servers; auth.setup.ts signs in on each through the login page and keeps the
 * browser's cookies in the storage-state files the spec projects start from.
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const port = Number(process.env.E2E_PORT ?? 8181);
/** The fresh server: an empty product with one admin, made before it starts. */
export const baseURL = `http://127.0.0.1:${port}`;
export const demoPort = port + 1;
/** The demo server: the data of `wcs demo seed`, with its own account demo / demo. */
export const demoURL = `http://127.0.0.1:${demoPort}`;

/**
 * Where the servers look song metadata up: a local stand-in for MusicBrainz and the iTunes Search
 * API that song-metadata.spec.ts starts on this port, so no run ever asks the real services.
 */
export const metadataFakePort = port + 2;
export const metadataFakeURL = `http://127.0.0.1:${metadataFakePort}`;

export const FRESH_ADMIN = { name: 'e2e-admin', password: 'e2e-admin-password' } as const;
export const DEMO_ACCOUNT = { name: 'demo', password: 'demo' } as const;

/**
 * Where the signed-in browsers' cookies are kept between the setup project and the specs: a
 * folder of this run (made by the runner, handed to the workers through the environment, removed
 * at exit), so two runs side by side never read each other's cookies (cookies ignore the port).
 */
function runAuthDir(): string {
  const inherited = process.env.WCS_E2E_AUTH_DIR;
  if (inherited) return inherited;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-auth-'));
  process.env.WCS_E2E_AUTH_DIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const authDir = runAuthDir();
export const FRESH_STATE = path.join(authDir, 'fresh-admin.json');
export const DEMO_STATE = path.join(authDir, 'demo.json');

/** A browser context with nobody signed in (for the login page and the accounts spec). */
export const SIGNED_OUT = { cookies: [], origins: [] };
