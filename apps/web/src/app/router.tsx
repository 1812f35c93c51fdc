import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, data, type LoaderFunctionArgs } from 'react-router';
import { onUnauthorized } from '../lib/api';
import { AppSplash } from './app-splash';
import { ErrorPage } from './error-page';
import { RootLayout } from './layout';
import { PageSkeleton } from './page-skeleton';
import { queryClient } from './providers';
import { handleUnauthorized, loadSession, redirectWhenSignedIn, requireSignedIn } from './session-guard';

/** A screen's queries module: `prefetch` starts the calls the screen makes first. */
interface ScreenQueries {
  prefetch: (client: QueryClient, url: URL) => void;
}

/**
 * A loader that starts a screen's first calls while the screen's code is still loading (React
 * Router runs a statically defined loader in parallel with `lazy`), instead of after the code
 * has arrived and rendered. It returns at once: the screen paints with its placeholders and its
 * queries pick up the calls in flight. A failure is the screen's to show, not the loader's.
 * The calls wait for the session (known after the first visit): signed out, there are none.
 */
function prefetchWith(load: () => Promise<ScreenQueries>) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    Promise.all([load(), loadSession(queryClient)])
      .then(([queries, session]) => {
        if (session.identity) queries.prefetch(queryClient, url);
      })
      .catch((error: unknown) => console.error('Could not start the screen’s calls early', error));
    return null;
  };
}

/**
 * Screens load on demand, so the initial bundle holds only the shell (no charts, no tables).
 * /login and /setup stand apart from the shell; every other address needs a session, checked by
 * the root's loader before anything of the app is drawn (a neutral splash holds the page meanwhile).
 */
export const router = createBrowserRouter([
  {
    path: '/login',
    loader: redirectWhenSignedIn(queryClient),
    hydrateFallbackElement: <AppSplash />,
    errorElement: <ErrorPage />,
    lazy: async () => {
      const { LoginPage } = await import('../features/auth/login-page');
      return { Component: LoginPage };
    },
  },
  {
    path: '/setup',
    loader: redirectWhenSignedIn(queryClient),
    hydrateFallbackElement: <AppSplash />,
    errorElement: <ErrorPage />,
    lazy: async () => {
      const { SetupPage } = await import('../features/auth/setup-page');
      return { Component: SetupPage };
    },
  },
  {
    path: '/',
    element: <RootLayout />,
    loader: requireSignedIn(queryClient),
    hydrateFallbackElement: <AppSplash />,
    // Only reached when the shell itself fails; page errors render inside the shell below.
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        // The first visit paints the shell at once and holds the screen's place while its code loads.
        hydrateFallbackElement: <PageSkeleton />,
        children: [
          {
            index: true,
            loader: prefetchWith(() => import('../features/dashboard/queries')),
            lazy: async () => {
              const { DashboardPage } = await import('../features/dashboard/dashboard-page');
              return { Component: DashboardPage };
            },
          },
          {
            path: 'recordings',
            loader: prefetchWith(() => import('../features/recordings/queries')),
            lazy: async () => {
              const { RecordingsPage } = await import('../features/recordings/recordings-page');
              return { Component: RecordingsPage };
            },
          },
          {
            path: 'downloads',
            loader: prefetchWith(() => import('../features/downloads/queries')),
            lazy: async () => {
              const { DownloadsPage } = await import('../features/downloads/downloads-page');
              return { Component: DownloadsPage };
            },
          },
          {
            path: 'events',
            loader: prefetchWith(() => import('../features/events/queries')),
            lazy: async () => {
              const { EventsPage } = await import('../features/events/events-page');
              return { Component: EventsPage };
            },
          },
          {
            path: 'events/review',
            loader: prefetchWith(() => import('../features/event-review/queries')),
            lazy: async () => {
              const { EventReviewPage } = await import('../features/event-review/event-review-page');
              return { Component: EventReviewPage };
            },
          },
          {
            path: 'songs',
            loader: prefetchWith(() => import('../features/songs/queries')),
            lazy: async () => {
              const { SongsPage } = await import('../features/songs/songs-page');
              return { Component: SongsPage };
            },
          },
          {
            path: 'analytics',
            loader: prefetchWith(() => import('../features/analytics/queries')),
            lazy: async () => {
              const { AnalyticsPage } = await import('../features/analytics/analytics-page');
              return { Component: AnalyticsPage };
            },
          },
          {
            path: 'events/insights',
            loader: prefetchWith(() => import('../features/event-insights/queries')),
            lazy: async () => {
              const { InsightsPage } = await import('../features/event-insights/insights-page');
              return { Component: InsightsPage };
            },
          },
          {
            path: 'overplay',
            loader: prefetchWith(() => import('../features/overplay/queries')),
            lazy: async () => {
              const { OverplayPage } = await import('../features/overplay/overplay-page');
              return { Component: OverplayPage };
            },
          },
          {
            path: 'playlists',
            loader: prefetchWith(() => import('../features/playlists/queries')),
            lazy: async () => {
              const { PlaylistsPage } = await import('../features/playlists/playlists-page');
              return { Component: PlaylistsPage };
            },
          },
          {
            path: 'playlists/import',
            lazy: async () => {
              const { PlaylistImportPage } = await import('../features/playlist-import/playlist-import-page');
              return { Component: PlaylistImportPage };
            },
          },
          {
            path: 'dj-import',
            loader: prefetchWith(() => import('../features/dj-import/queries')),
            lazy: async () => {
              const { DjImportPage } = await import('../features/dj-import/dj-import-page');
              return { Component: DjImportPage };
            },
          },
          {
            path: 'settings',
            loader: prefetchWith(() => import('../features/settings/queries')),
            lazy: async () => {
              const { SettingsPage } = await import('../features/settings/settings-page');
              return { Component: SettingsPage };
            },
          },
          {
            // Screens that are not built yet have no route: they answer 404 on the error page,
            // inside the shell so the sidebar stays usable.
            path: '*',
            // Never rendered (the loader always throws); set so React Router does not warn.
            element: null,
            loader: () => {
              throw data(null, { status: 404, statusText: 'Not Found' });
            },
          },
        ],
      },
    ],
  },
]);

// A guarded call answering 401 (the session ended) leads to the login page, with an empty cache.
onUnauthorized(() => handleUnauthorized(queryClient, router));
