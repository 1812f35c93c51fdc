import { createBrowserRouter, data } from 'react-router';
import { ErrorPage } from './error-page';
import { RootLayout } from './layout';

/** Screens load on demand, so the initial bundle holds only the shell (no charts, no tables). */
export const router = createBrowserRouter([
  {
    path: '/',
    element: <RootLayout />,
    // Only reached when the shell itself fails; page errors render inside the shell below.
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          {
            index: true,
            lazy: async () => {
              const { DashboardPage } = await import('../features/dashboard/dashboard-page');
              return { Component: DashboardPage };
            },
          },
          {
            path: 'recordings',
            lazy: async () => {
              const { RecordingsPage } = await import('../features/recordings/recordings-page');
              return { Component: RecordingsPage };
            },
          },
          {
            path: 'downloads',
            lazy: async () => {
              const { DownloadsPage } = await import('../features/downloads/downloads-page');
              return { Component: DownloadsPage };
            },
          },
          {
            path: 'events',
            lazy: async () => {
              const { EventsPage } = await import('../features/events/events-page');
              return { Component: EventsPage };
            },
          },
          {
            path: 'events/review',
            lazy: async () => {
              const { EventReviewPage } = await import('../features/event-review/event-review-page');
              return { Component: EventReviewPage };
            },
          },
          {
            path: 'songs',
            lazy: async () => {
              const { SongsPage } = await import('../features/songs/songs-page');
              return { Component: SongsPage };
            },
          },
          {
            path: 'analytics',
            lazy: async () => {
              const { AnalyticsPage } = await import('../features/analytics/analytics-page');
              return { Component: AnalyticsPage };
            },
          },
          {
            path: 'events/insights',
            lazy: async () => {
              const { InsightsPage } = await import('../features/event-insights/insights-page');
              return { Component: InsightsPage };
            },
          },
          {
            path: 'overplay',
            lazy: async () => {
              const { OverplayPage } = await import('../features/overplay/overplay-page');
              return { Component: OverplayPage };
            },
          },
          {
            path: 'playlists',
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
            path: 'settings',
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

function PageLoading() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span role="status" className="loading loading-spinner loading-lg" aria-label="Loading" />
    </div>
  );
}
