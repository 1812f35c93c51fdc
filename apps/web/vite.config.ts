import { constants as zlib } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import packageJson from './package.json' with { type: 'json' };
import { routePreloads } from './src/build/route-preloads';

/** Where `npm start` serves the API; `vite dev` proxies to it. */
const apiTarget = process.env.WCS_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // index.html per address with the scripts its screen loads first (served by the server).
    routePreloads(),
    VitePWA({
      // 'prompt' rather than 'autoUpdate': an automatic reload would cut a browser recording short.
      // A new version waits until the user reloads from the prompt (src/app/update-prompt.tsx) or
      // every tab of the app is closed.
      registerType: 'prompt',
      // src/lib/service-worker.ts registers it, so the update interval and error logging live there.
      injectRegister: false,
      manifest: {
        name: 'WCS DJ Library',
        short_name: 'WCS DJ',
        description: 'Record, recognise and analyse the songs played at West Coast Swing events.',
        start_url: '/',
        display: 'standalone',
        theme_color: '#1d232a',
        background_color: '#1d232a',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        // The shell and every screen's chunk (Recharts included): a second visit renders from the
        // cache, offline too. The .br/.gz twins below are the same files and stay out.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,txt}'],
        // The per-address copies of index.html are for first visits; the worker answers every
        // navigation with index.html itself.
        globIgnores: ['routes/**'],
        // The API and its docs are the server's, never the single-page app's index.html.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/docs(\/|$)/],
      },
    }),
    // Precompressed twins of every text file (x.js.br, x.js.gz) at the highest levels: the server
    // sends them by accept-encoding (apps/server/src/static-files.ts) without compressing per request.
    compression({
      include: /\.(html|js|mjs|css|svg|json|webmanifest|txt)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  define: {
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(packageJson.version),
  },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The small pieces several screens share (icons, components, the API client, query
              // hooks): one chunk instead of a dozen of under 1 KB, each a request of its own.
              name: 'shared',
              test: (id) =>
                /[\\/]node_modules[\\/](lucide-react|@tanstack)[\\/]/.test(id) ||
                (/[\\/]apps[\\/]web[\\/]src[\\/](components|lib)[\\/]/.test(id) &&
                  !/[\\/](line-series|count-bar|share-pie|score-radar)-chart\.tsx$|[\\/](socket|recorder)\.ts$/.test(
                    id,
                  )),
              minShareCount: 2,
            },
          ],
        },
      },
      treeshake: {
        // The contract's modules only declare (constants, zod schemas): a screen that reads a
        // constant must not pull in zod and every schema with it (the socket still uses its schemas).
        moduleSideEffects: [{ test: /[\\/]packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
  resolve: {
    // `source` first: @wcs/contract is consumed as TypeScript source, no build step needed.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
