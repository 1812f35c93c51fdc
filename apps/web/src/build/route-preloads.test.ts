import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_SCREENS, routeFileName, routePreloadsOf, withPreloads } from './route-preloads';

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = [], isEntry = false) => ({
  fileName,
  facadeModuleId,
  imports,
  isEntry,
});

describe('routePreloadsOf', () => {
  it("names a screen's chunks and what they import, less what index.html already loads", () => {
    const chunks = [
      chunk(
        'assets/index-A.js',
        '/app/apps/web/index.html',
        ['assets/shared-B.js', 'assets/runtime-C.js'],
        true,
      ),
      chunk('assets/shared-B.js', null),
      chunk('assets/runtime-C.js', null),
      chunk('assets/songs-page-D.js', '/app/apps/web/src/features/songs/songs-page.tsx', [
        'assets/shared-B.js',
        'assets/table-E.js',
      ]),
      chunk('assets/table-E.js', null, ['assets/runtime-C.js']),
      chunk('assets/queries-F.js', '/app/apps/web/src/features/songs/queries.ts', ['assets/shared-B.js']),
      chunk('assets/charts-G.js', '/app/apps/web/src/components/charts/line.tsx'),
    ];
    expect(
      routePreloadsOf(chunks, { '/songs': ['features/songs/songs-page', 'features/songs/queries'] }),
    ).toEqual({ '/songs': ['/assets/queries-F.js', '/assets/songs-page-D.js', '/assets/table-E.js'] });
  });

  it('refuses a module no chunk holds, so a renamed screen fails the build instead of preloading nothing', () => {
    expect(() => routePreloadsOf([], { '/songs': ['features/songs/songs-page'] })).toThrow(
      'No chunk of the build holds src/features/songs/songs-page (route /songs)',
    );
  });
});

describe('the pages per address', () => {
  it('names them as the server looks them up', () => {
    expect(routeFileName('/')).toBe('home');
    expect(routeFileName('/events/insights')).toBe('events--insights');
    expect(routeFileName('/songs')).toBe('songs');
  });

  it('puts the preloads before </head>', () => {
    expect(withPreloads('<html><head><title>x</title></head><body></body></html>', ['/assets/a.js'])).toBe(
      '<html><head><title>x</title><link rel="modulepreload" crossorigin href="/assets/a.js"></head><body></body></html>',
    );
  });
});

describe('ROUTE_SCREENS', () => {
  const router = readFileSync(path.join(import.meta.dirname, '../app/router.tsx'), 'utf8');

  it('names only modules the router loads, each under the address the router gives it', () => {
    for (const [route, modules] of Object.entries(ROUTE_SCREENS)) {
      const routePath = route === '/' ? 'index: true' : route.replace(/^\//, '');
      for (const module of modules) {
        const load = `import('../${module}')`;
        expect(router, `${route}: ${module}`).toContain(load);
        // The route block holding the import is the one of this address.
        const before = router.slice(0, router.indexOf(load));
        const lastPath = [...before.matchAll(/path: '([^']+)'|index: true/g)].at(-1)?.[0] ?? '';
        expect(lastPath.replace(/^path: '\/?|'$/g, ''), `${route}: ${module}`).toBe(routePath);
      }
    }
  });

  it("covers every screen's address of the router", () => {
    const paths = [...router.matchAll(/path: '([^'*]+)'/g)].map(
      (match) => `/${match[1]!.replace(/^\//, '')}`,
    );
    for (const routePath of paths) {
      if (routePath === '/') continue;
      expect(Object.keys(ROUTE_SCREENS), routePath).toContain(routePath);
    }
  });
});
