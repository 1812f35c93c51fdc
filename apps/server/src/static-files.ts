import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Config } from './config.js';

/** Content-hashed build output (Vite's `assets/`): a new build gives every changed file a new name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, sw.js, the manifest: always asked again, answered 304 while the ETag holds. */
const REVALIDATE = 'no-cache';
/** JSON (and any text) smaller than this travels as is: the headers would cost more than they save. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The encodings of API answers, by preference. */
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/**
 * A route's own `compress` options for files sent while they are made (the library exports: the
 * whole library's CSV is 32.8 MB at 200,000 songs): brotli at quality 1 and gzip at level 1
 * instead of @fastify/compress's 4 and zlib's 6. At quality 4 brotli wrote nothing until it had
 * 8.5 MB of that CSV (the download's first byte after 0.9-1.9 s, though the rows came at once),
 * and both spent more CPU than the 2 cores of a small server spare for it: the file's 32.8 MB at
 * 6.9 MB with brotli 1 (6.1 at 4), 7.0 MB with gzip 1 (5.8 at 6), on a local network either way
 * (docs/performance.md, 2026-11-27).
 */
export const DOWNLOAD_COMPRESSION = {
  encodings: ENCODINGS,
  threshold: COMPRESS_THRESHOLD_BYTES,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
} satisfies FastifyCompressOptions;

/**
 * Routes whose bodies must not pass through the compression hooks: the multipart upload (audio,
 * read as a stream by its handler) and the live WebSocket (the upgrade is no HTTP body).
 */
function isUncompressedRoute(routeOptions: RouteOptions): boolean {
  const socket = routeOptions as { websocket?: boolean; wsHandler?: unknown };
  if (socket.websocket === true || socket.wsHandler !== undefined) return true;
  const consumes = (routeOptions.schema as { consumes?: unknown } | undefined)?.consumes;
  return Array.isArray(consumes) && consumes.includes('multipart/form-data');
}

/**
 * Compression of responses, the built web app and the single-page app's fallback. Register it
 * before the API routes: @fastify/compress hooks into the routes registered after it.
 *
 * - API responses of 1 KB and more are compressed (br, else gzip) by `accept-encoding`; request
 *   bodies are never decompressed (the API takes no compressed bodies, as before). A route that
 *   sends large files takes DOWNLOAD_COMPRESSION as its own `compress` options.
 * - Files of the build are sent precompressed (`x.js.br`, `x.js.gz`, written by the web build)
 *   with `content-encoding` chosen by `accept-encoding`; `assets/` are cached for a year as
 *   immutable, everything else (index.html, sw.js, the manifest) is revalidated on every use.
 * - Unknown `/api` paths and non-GET requests are 404 JSON; other GETs are client routes and get
 *   index.html; without a build, they get 503 with what to do.
 * - A screen's own address gets the build's copy of index.html for it (`routes/<name>.html`,
 *   written by apps/web/src/build/route-preloads.ts), which names the scripts of that screen as
 *   module preloads: the browser fetches them beside the entry script instead of after it ran.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  config: Pick<Config, 'webDistDir'>,
): Promise<void> {
  // Added before the compression plugin's own onRoute hook, so it sees `compress: false`.
  app.addHook('onRoute', (routeOptions) => {
    if (isUncompressedRoute(routeOptions)) routeOptions.compress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ENCODINGS,
    threshold: COMPRESS_THRESHOLD_BYTES,
    globalDecompression: false,
  });

  const root = config.webDistDir;
  const indexHtml = path.join(root, 'index.html');
  const hasWebApp = existsSync(indexHtml);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      // One route per file of the build (read at start), so the API's 404s stay JSON.
      wildcard: false,
      // The .br and .gz siblings are reached through their file's route, never by their own name.
      globIgnore: ['**/*.br', '**/*.gz'],
      preCompressed: true,
      // '/' is a screen's address like the others: the fallback below answers it.
      index: false,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(root, filePath).split(path.sep).join('/');
        reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      },
    });
  }

  const screenPages = hasWebApp ? screenPagesOf(root) : new Map<string, string>();

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: `No such API call: ${request.method} ${url}` });
    }
    if (!hasWebApp) {
      return reply
        .status(503)
        .type('text/plain')
        .send(`The web app is not built (${indexHtml} is missing). Run "npm start", which builds it.`);
    }
    // Single-page app: every other path is a client-side route; a screen's address gets its copy.
    const page = screenPages.get(screenName(url)) ?? 'index.html';
    return reply.type('text/html').header('cache-control', REVALIDATE).sendFile(page);
  });
}

/** Where the build keeps a copy of index.html per screen. */
const SCREEN_PAGES_DIR = 'routes';

/** A screen's address as the build names its page: '/events/insights/' → 'events--insights', '/' → 'home'. */
export function screenName(pathname: string): string {
  return pathname.replace(/^\/+|\/+$/g, '').replaceAll('/', '--') || 'home';
}

/**
 * The build's pages per screen name, read once from the build's folder: a request only picks one
 * of these by name, so no path is made from the address.
 */
function screenPagesOf(root: string): Map<string, string> {
  const pages = new Map<string, string>();
  const folder = path.join(root, SCREEN_PAGES_DIR);
  if (!existsSync(folder)) return pages;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) {
      pages.set(entry.name.slice(0, -'.html'.length), `${SCREEN_PAGES_DIR}/${entry.name}`);
    }
  }
  return pages;
}
