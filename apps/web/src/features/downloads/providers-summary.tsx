import { Link } from 'react-router';
import { errorMessage } from '../../lib/api';
import { useDownloadProviders } from '../../lib/system-status';

/**
 * In the preview: which providers a run uses, in their order, and how many tries the daily caps
 * leave today, so Start Downloads promises no more than the worker will do.
 */
export function ProvidersSummary({ candidates }: { candidates: number }) {
  const providers = useDownloadProviders();
  if (providers.isPending)
    return <p className="text-base-content/60 text-sm">Reading the download providers...</p>;
  if (providers.isError) {
    return (
      <p className="text-error text-sm">
        The download providers could not be read: {errorMessage(providers.error)}
      </p>
    );
  }
  const { providers: list, max_downloads_per_day, used_today } = providers.data;
  const ready = list.filter((provider) => provider.enabled && provider.configured);
  const left = Math.max(0, max_downloads_per_day - used_today);
  const providerLeft = ready.reduce(
    (sum, provider) => sum + Math.max(0, provider.daily_cap - provider.used_today),
    0,
  );
  const today = Math.min(candidates, left, providerLeft);
  return (
    <section aria-labelledby="preview-providers" className="space-y-1">
      <h3 id="preview-providers" className="font-semibold">
        Download Providers
      </h3>
      {ready.length === 0 ? (
        <div role="note" className="alert alert-warning alert-soft text-sm">
          <span>
            No download provider is configured: turn one on under Download providers in{' '}
            <Link to="/settings" className="link">
              Settings
            </Link>{' '}
            (the inbox folder, or the command set by WCS_DOWNLOAD_COMMAND). Start Downloads is refused until
            then.
          </span>
        </div>
      ) : (
        <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <li>Order: {ready.map((provider) => provider.label).join(', then ')}</li>
          <li>
            Tries left today: {Math.min(left, providerLeft)} (daily cap {max_downloads_per_day}, {used_today}{' '}
            used)
          </li>
          <li>
            This run tries at most {today} {today === 1 ? 'song' : 'songs'} today
          </li>
        </ul>
      )}
    </section>
  );
}
