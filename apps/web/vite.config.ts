import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import packageJson from './package.json' with { type: 'json' };

/** Where `npm start` serves the API; `vite dev` proxies to it. */
const apiTarget = process.env.WCS_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // 'prompt' rather than 'autoUpdate': an automatic reload would cut a browser recording short.
      // A new version waits until every tab of the app is closed.
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
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // The API and its docs are the server's, never the single-page app's index.html.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/docs(\/|$)/],
      },
    }),
  ],
  define: {
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(packageJson.version),
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
