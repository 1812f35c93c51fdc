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
