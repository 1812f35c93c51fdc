import {
  BarChart3,
  CalendarDays,
  Disc3,
  Download,
  Flame,
  LayoutDashboard,
  ListMusic,
  LogOut,
  type LucideIcon,
  Menu,
  Mic,
  Music,
  Settings,
  Trophy,
  UserRound,
  X,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../lib/api';
import { LOGIN_PATH } from '../lib/auth-paths';
import { useIdentity, useSignOut } from '../lib/session';
import { UpdatePrompt } from './update-prompt';

/** The generic product name: the header title on screens without their own, and the page title. */
export const PRODUCT_NAME = 'WCS DJ Library';
/** The short name at the top of the sidebar; the full product name is its subtitle. */
const BRAND_NAME = 'WCS DJ';
const APP_VERSION: string = import.meta.env.VITE_APP_VERSION ?? '0.1.0';

interface NavEntry {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The sidebar, in the specification's order. */
const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard },
  { label: 'Recordings', to: '/recordings', icon: Mic },
  { label: 'Downloads', to: '/downloads', icon: Download },
  { label: 'Events', to: '/events', icon: CalendarDays },
  { label: 'Songs', to: '/songs', icon: Music },
  { label: 'Analytics', to: '/analytics', icon: BarChart3 },
  { label: 'Event Insights', to: '/events/insights', icon: Trophy },
  { label: 'Overplay Monitor', to: '/overplay', icon: Flame },
  { label: 'Playlists', to: '/playlists', icon: ListMusic },
  { label: 'Settings', to: '/settings', icon: Settings },
];

/** Header titles by exact path; every other path shows the product name. */
const TITLES_BY_PATH: Readonly<Record<string, string>> = {
  '/': 'Dashboard',
  '/events': 'Events',
  '/songs': 'Songs',
  '/analytics': 'Analytics',
  '/playlists': 'Playlists',
  '/settings': 'Settings',
};

export function titleForPath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return TITLES_BY_PATH[path] ?? PRODUCT_NAME;
}

const DRAWER_ID = 'app-drawer';

/** Who is signed in, with their role, and Sign out (POST /auth/logout, then the login page). */
function SignedInUser() {
  const identity = useIdentity();
  const signOut = useSignOut();
  const navigate = useNavigate();
  if (!identity) return null;

  const leave = () =>
    signOut.mutate(undefined, {
      onSuccess: () => void navigate(LOGIN_PATH, { replace: true }),
      onError: (error) => window.alert(`Failed to sign out: ${errorMessage(error)}`),
    });

  return (
    <div className="flex items-center gap-2">
      <p className="sr-only flex items-center gap-1 text-sm sm:not-sr-only">
        <UserRound className="size-4 shrink-0" aria-hidden="true" />
        <span className="sr-only">Signed in as </span>
        <span className="max-w-32 truncate font-medium">{identity.name}</span>
        <span className="sr-only">, role </span>
        <span className="badge badge-outline badge-sm">{identity.role}</span>
      </p>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={leave}
        disabled={signOut.isPending}
        title="Sign out"
      >
        {signOut.isPending ? (
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        ) : (
          <LogOut className="size-4" aria-hidden="true" />
        )}
        <span className="sr-only sm:not-sr-only">Sign out</span>
      </button>
    </div>
  );
}

/** On a phone the header has no room for the name: the drawer says who is signed in. */
function SidebarIdentity() {
  const identity = useIdentity();
  if (!identity) return null;
  return (
    <p className="flex items-center gap-2 border-base-300 border-t p-4 text-sm sm:hidden" aria-hidden="true">
      <UserRound className="size-4 shrink-0" aria-hidden="true" />
      <span className="truncate font-medium">{identity.name}</span>
      <span className="badge badge-outline badge-sm">{identity.role}</span>
    </p>
  );
}

/**
 * The shell around every screen: a sidebar fixed on wide screens (lg and up), a slide-in drawer
 * with a dimmed backdrop below that, and a header with the menu button, the title, the LIVE badge
 * and who is signed in.
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const title = titleForPath(pathname);
  const isInsights = pathname.startsWith('/events/insights');

  useEffect(() => {
    document.title = title === PRODUCT_NAME ? PRODUCT_NAME : `${title} · ${PRODUCT_NAME}`;
  }, [title]);

  useEffect(() => {
    if (!isDrawerOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsDrawerOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [isDrawerOpen]);

  const closeDrawer = () => setIsDrawerOpen(false);

  return (
    <div className="drawer min-h-screen bg-base-200 lg:drawer-open">
      {/* daisyUI's drawer is driven by this hidden checkbox; React state is the source of truth. */}
      <input
        id={DRAWER_ID}
        type="checkbox"
        className="drawer-toggle"
        checked={isDrawerOpen}
        onChange={(event) => setIsDrawerOpen(event.target.checked)}
        tabIndex={-1}
        aria-hidden="true"
      />

      <div className="drawer-content flex min-h-screen flex-col">
        <header className="navbar sticky top-0 z-10 gap-2 border-base-300 border-b bg-base-100 px-4">
          <button
            type="button"
            className="btn btn-square btn-ghost lg:hidden"
            aria-label="Open menu"
            aria-controls="app-sidebar"
            aria-expanded={isDrawerOpen}
            onClick={() => setIsDrawerOpen(true)}
          >
            <Menu className="size-6" aria-hidden="true" />
          </button>
          <h1 className="flex-1 truncate font-semibold text-xl">{title}</h1>
          <span className="badge badge-error animate-pulse font-semibold text-xs">● LIVE</span>
          <SignedInUser />
        </header>

        <main className="mx-auto w-full max-w-7xl flex-1 p-4 lg:p-8">
          <Outlet />
        </main>
        <UpdatePrompt />
      </div>

      <div className="drawer-side z-20">
        {/* The dimmed backdrop closes the drawer on a click. Keyboard and screen reader users have
            the Close menu button and Escape, so it is hidden from assistive technology (a label may
            not carry an aria-label: axe's aria-prohibited-attr). */}
        {/* biome-ignore lint/a11y/noLabelWithoutControl: daisyUI's backdrop, hidden from assistive technology. */}
        <label htmlFor={DRAWER_ID} aria-hidden="true" className="drawer-overlay" />
        <aside
          id="app-sidebar"
          className="flex min-h-full w-64 flex-col border-base-300 border-r bg-base-100"
        >
          <div className="flex items-center gap-3 border-base-300 border-b p-4">
            <Disc3 className="size-9 shrink-0 text-primary" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="font-bold text-lg leading-tight">{BRAND_NAME}</p>
              <p className="text-base-content/70 text-xs">{PRODUCT_NAME}</p>
              <span className="badge badge-ghost badge-xs mt-1">v{APP_VERSION}</span>
            </div>
            <button
              type="button"
              className="btn btn-square btn-ghost btn-sm lg:hidden"
              aria-label="Close menu"
              onClick={closeDrawer}
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>

          <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
            <ul className="menu w-full gap-1">
              {NAV_ENTRIES.map(({ label, to, icon: Icon }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    // Dashboard only on /; Events not on /events/insights, which has its own entry.
                    end={to === '/' || (to === '/events' && isInsights)}
                    onClick={closeDrawer}
                    className={({ isActive }) => (isActive ? 'menu-active' : undefined)}
                  >
                    <Icon className="size-5" aria-hidden="true" />
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <SidebarIdentity />
        </aside>
      </div>
    </div>
  );
}
