import type { Plugin } from 'vite';

/**
 * Each address of the app and the modules its screen loads first (app/router.tsx: the screen's
 * page and the queries its loader starts), relative to src/ without their extension. The router
 * loads them once the entry script has run; the server names them in the address's index.html
 * (apps/server/src/static-files.ts) so the browser fetches them beside the entry script, not
 * after it. route-preloads.test.ts checks the router still imports every module named here.
 */
export const ROUTE_SCREENS: Readonly<Record<string, readonly string[]>> = {
  '/': ['features/dashboard/dashboard-page', 'features/dashboard/queries'],
  '/recordings': ['features/recordings/recordings-page', 'features/recordings/queries'],
  '/downloads': ['features/downloads/downloads-page', 'features/downloads/queries'],
  '/events': ['features/events/events-page', 'features/events/queries'],
  '/events/review': ['features/event-review/event-review-page', 'features/event-review/queries'],
  '/songs': ['features/songs/songs-page', 'features/songs/queries'],
  '/analytics': ['features/analytics/analytics-page', 'features/analytics/queries'],
  '/events/insights': ['features/event-insights/insights-page', 'features/event-insights/queries'],
  '/overplay': ['features/overplay/overplay-page', 'features/overplay/queries'],
  '/playlists': ['features/playlists/playlists-page', 'features/playlists/queries'],
  '/playlists/import': ['features/playlist-import/playlist-import-page'],
  '/dj-import': ['features/dj-import/dj-import-page', 'features/dj-import/queries'],
  '/settings': ['features/settings/settings-page', 'features/settings/queries'],
  '/login': ['features/auth/login-page'],
  '/setup': ['features/auth/setup-page'],
};

/** Where the build writes each address's index.html: `routes/<name>.html` (routeFileName). */
export const ROUTES_DIR = 'routes';

/** '/events/insights' → 'events--insights', '/' → 'home' (apps/server/src/static-files.ts reads the same names). */
export function routeFileName(route: string): string {
  return route.replace(/^\/+|\/+$/g, '').replaceAll('/', '--') || 'home';
}

/** index.html with the scripts of one address named as module preloads, before `</head>`. */
export function withPreloads(indexHtml: string, files: readonly string[]): string {
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`).join('');
  if (!indexHtml.includes('</head>')) throw new Error('index.html has no </head> to put the preloads before');
  return indexHtml.replace('</head>', `${links}</head>`);
}

interface ChunkInfo {
  fileName: string;
  facadeModuleId: string | null;
  imports: readonly string[];
  isEntry: boolean;
}

/**
 * The scripts each address needs beyond the entry's own: the chunks of its modules and everything
 * they import statically, less what index.html already loads (the entry and its imports).
 */
export function routePreloadsOf(
  chunks: readonly ChunkInfo[],
  screens: Readonly<Record<string, readonly string[]>> = ROUTE_SCREENS,
): Record<string, string[]> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (fileName: string, into = new Set<string>()): Set<string> => {
    if (into.has(fileName)) return into;
    into.add(fileName);
    for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, into);
    return into;
  };
  const loadedByIndex = new Set<string>();
  for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, loadedByIndex);

  const preloads: Record<string, string[]> = {};
  for (const [route, modules] of Object.entries(screens)) {
    const files = new Set<string>();
    for (const module of modules) {
      const chunk = chunks.find((candidate) =>
        /\.(tsx|ts)$/.test(candidate.facadeModuleId ?? '')
          ? candidate
              .facadeModuleId!.replace(/\\/g, '/')
              .replace(/\.(tsx|ts)$/, '')
              .endsWith(`/src/${module}`)
          : false,
      );
      if (!chunk) throw new Error(`No chunk of the build holds src/${module} (route ${route})`);
      for (const file of closure(chunk.fileName)) if (!loadedByIndex.has(file)) files.add(`/${file}`);
    }
    preloads[route] = [...files].sort();
  }
  return preloads;
}

/**
 * The Vite plugin that writes `routes/<name>.html` for each address: the built index.html with
 * the address's scripts named as module preloads. It runs after Vite has written index.html.
 */
export function routePreloads(): Plugin {
  return {
    name: 'wcs-route-preloads',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('The build wrote no index.html');
      const indexHtml =
        typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk'
          ? [
              {
                fileName: output.fileName,
                facadeModuleId: output.facadeModuleId,
                imports: output.imports,
                isEntry: output.isEntry,
              },
            ]
          : [],
      );
      for (const [route, files] of Object.entries(routePreloadsOf(chunks))) {
        this.emitFile({
          type: 'asset',
          fileName: `${ROUTES_DIR}/${routeFileName(route)}.html`,
          source: withPreloads(indexHtml, files),
        });
      }
    },
  };
}
