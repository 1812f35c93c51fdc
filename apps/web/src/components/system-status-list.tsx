import type { SystemStatusItem } from '@wcs/contract';
import {
  Activity,
  AlertTriangle,
  CheckCircle2,
  Database,
  Download,
  HardDrive,
  type LucideIcon,
  Radio,
  Server,
  XCircle,
} from 'lucide-react';
import { errorMessage } from '../lib/api';
import { useSystemStatus } from '../lib/system-status';
import { ErrorCard } from './error-card';
import { Loading } from './loading';

const ICONS: Record<SystemStatusItem['key'], LucideIcon> = {
  server: Server,
  database: Database,
  jobs: Activity,
  disk: HardDrive,
  recognition: Radio,
  downloads: Download,
};

const STATE: Record<SystemStatusItem['state'], { icon: LucideIcon; tone: string; label: string }> = {
  ok: { icon: CheckCircle2, tone: 'text-success', label: 'OK' },
  warning: { icon: AlertTriangle, tone: 'text-warning', label: 'Warning' },
  error: { icon: XCircle, tone: 'text-error', label: 'Error' },
};

/**
 * The server's configuration and health as cards (GET /system/status): each says what is so,
 * and for a warning or an error what to do. The Dashboard and Settings show it.
 */
export function SystemStatusList() {
  const status = useSystemStatus();
  if (status.isPending) return <Loading label="Checking the server..." />;
  if (status.isError) {
    return (
      <ErrorCard
        title="The server's status could not be read"
        message={errorMessage(status.error)}
        onRetry={() => void status.refetch()}
        isRetrying={status.isFetching}
      />
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="System status">
      {status.data.items.map((item) => {
        const Icon = ICONS[item.key];
        const state = STATE[item.state];
        const StateIcon = state.icon;
        return (
          <li
            key={item.key}
            aria-label={`${item.title}: ${state.label}`}
            className={`card card-sm bg-base-100 shadow ${item.state === 'ok' ? '' : item.state === 'warning' ? 'border border-warning' : 'border border-error'}`}
          >
            <div className="card-body flex-row items-start gap-3">
              <Icon className={`mt-0.5 size-6 shrink-0 ${state.tone}`} aria-hidden="true" />
              <div className="flex-1 space-y-1">
                <h3 className="font-medium">{item.title}</h3>
                <p className="text-base-content/70 text-sm">{item.description}</p>
                {item.action && <p className="text-sm">{item.action}</p>}
              </div>
              <StateIcon className={`size-5 shrink-0 ${state.tone}`} aria-label={state.label} role="img" />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
