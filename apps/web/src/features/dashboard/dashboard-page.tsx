import {
  Activity,
  BarChart3,
  CalendarDays,
  Download,
  ListMusic,
  type LucideIcon,
  Mic,
  Music,
} from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { SystemStatusList } from '../../components/system-status-list';
import { useAnalyticsOverview } from './queries';
import { StatCard } from './stat-card';

interface QuickAction {
  title: string;
  description: string;
  to: string;
  icon: LucideIcon;
}

const QUICK_ACTIONS: readonly QuickAction[] = [
  {
    title: 'Recordings',
    description: 'Record a social and upload it for recognition',
    to: '/recordings',
    icon: Mic,
  },
  {
    title: 'Downloads',
    description: 'Follow the queue of songs to download',
    to: '/downloads',
    icon: Download,
  },
  {
    title: 'Analytics',
    description: 'Play patterns per event, social and time window',
    to: '/analytics',
    icon: BarChart3,
  },
  { title: 'Songs', description: 'Browse and manage your song library', to: '/songs', icon: Music },
  {
    title: 'Events',
    description: 'Parties and festivals with their nightly socials',
    to: '/events',
    icon: CalendarDays,
  },
  {
    title: 'Playlists',
    description: 'Generated playlists for your DJ software',
    to: '/playlists',
    icon: ListMusic,
  },
];

export function DashboardPage() {
  const overview = useAnalyticsOverview();

  useEffect(() => {
    // The catalogue's rule for other failures: log it and leave the screen as it was (zeros).
    if (overview.error) console.error('Failed to load the analytics overview', overview.error);
  }, [overview.error]);

  const stats = [
    { label: 'Total Songs', value: overview.data?.total_songs, icon: Music },
    { label: 'Total Events', value: overview.data?.total_events, icon: CalendarDays },
    { label: 'Total Plays', value: overview.data?.total_plays, icon: Activity },
    { label: 'Pending Downloads', value: overview.data?.pending_downloads, icon: Download },
  ] satisfies { label: string; value: number | undefined; icon: LucideIcon }[];

  return (
    <div className="space-y-8">
      <section className="card bg-base-100 shadow">
        <div className="card-body">
          <h2 className="card-title text-2xl">Welcome to the WCS DJ Library</h2>
          <p className="text-base-content/70">
            Record your socials, recognise the songs you played, and see what works on the floor: play
            analytics, overplay warnings, fresh songs and playlists for your DJ software.
          </p>
        </div>
      </section>

      <section aria-labelledby="dashboard-stats">
        <h2 id="dashboard-stats" className="sr-only">
          Statistics
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {stats.map((stat) => (
            <StatCard key={stat.label} {...stat} isLoading={overview.isPending} />
          ))}
        </div>
      </section>

      <section aria-labelledby="dashboard-quick-actions" className="space-y-4">
        <h2 id="dashboard-quick-actions" className="font-semibold text-xl">
          Quick Actions
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {QUICK_ACTIONS.map(({ title, description, to, icon: Icon }) => (
            <Link
              key={to}
              to={to}
              className="card bg-base-100 shadow transition-shadow hover:shadow-lg focus-visible:outline-2 focus-visible:outline-primary"
            >
              <div className="card-body flex-row items-center gap-4">
                <Icon className="size-8 shrink-0 text-primary" aria-hidden="true" />
                <div>
                  <h3 className="card-title text-base">{title}</h3>
                  <p className="text-base-content/70 text-sm">{description}</p>
                </div>
              </div>
            </Link>
          ))}
        </div>
      </section>

      <section aria-labelledby="dashboard-system-status" className="space-y-4">
        <h2 id="dashboard-system-status" className="font-semibold text-xl">
          System Status
        </h2>
        <SystemStatusList />
      </section>
    </div>
  );
}
