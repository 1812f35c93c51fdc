/**
 * Serving of the built web app (static-files.ts) through the whole app: precompressed files by
 * accept-encoding, cache-control of hashed assets and of index.html, the single-page app's
 * fallback, the API's JSON 404s, compression of API responses and the missing-build answer.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness.js';

const INDEX_HTML = `<!doctype html><html lang="en"><head><title>WCS DJ Library</title>${'<meta name="x">'.repeat(
  100,
)}<script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
/** The build's copy of index.html for a screen: its scripts named as module preloads. */
const screenPage = (script: string) =>
  INDEX_HTML.replace('</head>', `<link rel="modulepreload" crossorigin href="/assets/${script}"></head>`);
const SONGS_HTML = screenPage('songs-page-X1.js');
const HOME_HTML = screenPage('dashboard-page-X2.js');
const INSIGHTS_HTML = screenPage('insights-page-X3.js');
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;
const BROWSER = 'gzip, deflate, br, zstd';

/** A small build as Vite writes it: hashed assets with .br and .gz siblings, root files beside. */
async function writeBuild(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  const files: Record<string, string> = {
    'index.html': INDEX_HTML,
    'assets/index-AbC123.js': SCRIPT,
    'sw.js': 'self.addEventListener("install", () => {});\n',
    'manifest.webmanifest': '{"name":"WCS DJ Library"}',
    'routes/songs.html': SONGS_HTML,
    'routes/home.html': HOME_HTML,
    'routes/events--insights.html': INSIGHTS_HTML,
  };
  await fs.mkdir(path.join(dir, 'routes'));
  for (const [name, text] of Object.entries(files)) {
    await fs.writeFile(path.join(dir, name), text);
    if (text.length < 1024) continue;
    await fs.writeFile(path.join(dir, `${name}.br`), zlib.brotliCompressSync(text));
    await fs.writeFile(path.join(dir, `${name}.gz`), zlib.gzipSync(text));
  }
}

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-web-dist-'));
  await writeBuild(webDist);
  t = await createTestApp({ env: { WCS_WEB_DIST: webDist } });
});

afterAll(async () => {
  await t?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('built web app', () => {
  it('sends the brotli file to a browser that accepts br, the gzip file to one that accepts only gzip', async () => {
    const brotli = await get('/assets/index-AbC123.js', BROWSER);
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload).toEqual(await fs.readFile(path.join(webDist, 'assets/index-AbC123.js.br')));
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/index-AbC123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('lets browsers keep hashed assets for a year and asks them to revalidate index.html, sw.js and the manifest', async () => {
    expect((await get('/assets/index-AbC123.js', BROWSER)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    for (const url of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/songs']) {
      const response = await get(url, BROWSER);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    const index = await get('/', BROWSER);
    expect(index.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(index.rawPayload).toString()).toBe(HOME_HTML);
    // Revalidation is cheap: the ETag answers 304 without a body.
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': BROWSER, 'if-none-match': String(index.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("answers client routes with index.html, a screen's address with the build's copy naming its scripts", async () => {
    for (const [url, html] of [
      ['/songs', SONGS_HTML],
      ['/songs/', SONGS_HTML],
      ['/events/insights?event_id=3', INSIGHTS_HTML],
      ['/no/such/screen', INDEX_HTML],
      ['/songs/../routes/home', INDEX_HTML],
    ] as const) {
      const response = await get(url, 'gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('gzip');
      expect(zlib.gunzipSync(response.rawPayload).toString(), url).toBe(html);
    }
    expect((await get('/songs')).body).toBe(SONGS_HTML);
    expect((await get('/no/such/screen')).body).toBe(INDEX_HTML);
  });

  it('answers unknown API calls and other methods with 404 JSON, not the web app', async () => {
    for (const [method, url] of [
      ['GET', '/api/no-such-call'],
      ['GET', '/api'],
      ['POST', '/songs'],
      ['DELETE', '/assets/index-AbC123.js'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { 'accept-encoding': BROWSER } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
      expect(response.json(), `${method} ${url}`).toEqual({ message: `No such API call: ${method} ${url}` });
    }
  });
});

describe('API responses', () => {
  it('compresses JSON of 1 KB and more by accept-encoding, and leaves small answers alone', async () => {
    const document = await get('/api/docs/json', BROWSER);
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-encoding']).toBe('br');
    expect(document.headers.vary).toMatch(/accept-encoding/i);
    const parsed = JSON.parse(zlib.brotliDecompressSync(document.rawPayload).toString());
    expect(parsed.openapi).toMatch(/^3\./);

    const gzip = await get('/api/docs/json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(parsed);

    expect((await get('/api/docs/json')).headers['content-encoding']).toBeUndefined();

    const health = await get('/api/health', BROWSER);
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('keeps the live socket working for a browser that accepts compression', async () => {
    const received: { type: string }[] = [];
    const ws = await t.app.injectWS(
      '/api/ws/recordings/static-files',
      {
        headers: {
          host: 'localhost',
          'accept-encoding': BROWSER,
          authorization: `Bearer ${t.tokens.viewer}`,
        },
      },
      { onInit: (socket) => socket.on('message', (raw) => received.push(JSON.parse(raw.toString()))) },
    );
    await expect
      .poll(() => received.map((message) => message.type), { timeout: 10_000 })
      .toContain('connected');
    ws.terminate();
  });
});

describe('without a build', () => {
  it('answers client routes with 503 and what to do, and the API as usual', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-web-dist-empty-'));
    const bare = await createTestApp({ env: { WCS_WEB_DIST: empty } });
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/songs' });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.body).toContain('The web app is not built');
      const api = await bare.app.inject({ method: 'GET', url: '/api/nothing' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ message: 'No such API call: GET /api/nothing' });
    } finally {
      await bare.close();
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
