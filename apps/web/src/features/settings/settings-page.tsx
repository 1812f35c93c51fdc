import { SETTINGS_RANGES, type Settings } from '@wcs/contract';
import { Lock, Save } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { SystemStatusList } from '../../components/system-status-list';
import { ApiError, errorMessage } from '../../lib/api';
import { useCan, useIdentity } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { AuditSection } from './audit-section';
import { ChangePasswordSection } from './change-password-section';
import { DownloadProvidersSection } from './download-providers-section';
import {
  NUMERIC_FIELDS,
  type NumericFieldDefinition,
  rangeHint,
  type SettingsFormValues,
  toFormValues,
  validateSettingsForm,
} from './lib/settings-form';
import { useUpdateSettings } from './queries';
import { TokensSection } from './tokens-section';
import { UsersSection } from './users-section';

/** How long 'Settings updated successfully!' stays. */
const SUCCESS_VISIBLE_MS = 3000;

/**
 * /settings: the product's settings (an admin edits them, the other roles read them), Change
 * password for everyone signed in, and for admins Users, Device tokens and the Audit log.
 */
export function SettingsPage() {
  const settings = useSettings();
  const canEdit = useCan('updateSettings');
  const isUser = useIdentity()?.kind === 'user';
  const canManageUsers = useCan('listUsers');
  const canManageTokens = useCan('listTokens');
  const canReadAudit = useCan('auditLog');
  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-bold text-2xl">Settings Management</h2>
        <p className="text-base-content/70">
          {canEdit
            ? 'Downloads, event weights and overplay thresholds'
            : 'Downloads, event weights and overplay thresholds; only an admin can change them'}
        </p>
      </div>
      {settings.isPending ? (
        <Loading label="Loading settings..." />
      ) : settings.isError ? (
        <ErrorCard
          title={`Error loading settings: ${errorMessage(settings.error)}`}
          onRetry={() => settings.refetch()}
          isRetrying={settings.isFetching}
        />
      ) : canEdit ? (
        <SettingsForm settings={settings.data} />
      ) : (
        <>
          <SettingsReadOnly settings={settings.data} />
          <ReadOnlySettings settings={settings.data} />
        </>
      )}
      {/* What follows waits for the settings above it: drawn earlier, it would be pushed down the
          screen when the settings arrive (a layout shift of 0.58 on a phone). */}
      {!settings.isPending && (
        <>
          <DownloadProvidersSection />
          <section aria-labelledby="settings-system-status" className="space-y-3">
            <h3 id="settings-system-status" className="font-semibold text-lg">
              System status
            </h3>
            <SystemStatusList />
          </section>
          {isUser && <ChangePasswordSection />}
          {canManageUsers && <UsersSection />}
          {canManageTokens && <TokensSection />}
          {canReadAudit && <AuditSection />}
        </>
      )}
    </div>
  );
}

/** The seven editable values as text, for the roles that may read but not change them. */
function SettingsReadOnly({ settings }: { settings: Settings }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <Lock className="size-4" aria-hidden="true" />
          Settings (read-only for your role)
        </h3>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div>
            <dt className="text-base-content/70 text-sm">Downloads enabled</dt>
            <dd className="font-semibold text-lg">{settings.download_enabled ? 'On' : 'Off'}</dd>
          </div>
          {NUMERIC_FIELDS.map((field) => (
            <div key={field.key}>
              <dt className="text-base-content/70 text-sm">{field.label}</dt>
              <dd className="font-semibold text-lg">{settings[field.key]}</dd>
            </div>
          ))}
        </dl>
        <p className="text-base-content/60 text-xs">Only an admin can change these settings.</p>
      </div>
    </section>
  );
}

/** The failure text of a save: the server's message, else the catalogue's sentence. */
function updateErrorText(error: unknown): string {
  return error instanceof ApiError && error.message ? error.message : 'Failed to update settings';
}

function SettingsForm({ settings }: { settings: Settings }) {
  const [values, setValues] = useState<SettingsFormValues>(() => toFormValues(settings));
  const [validationError, setValidationError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const update = useUpdateSettings();
  const toggleId = useId();

  useEffect(() => {
    if (savedAt === null) return;
    const timer = window.setTimeout(() => setSavedAt(null), SUCCESS_VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [savedAt]);

  const submit = (event: FormEvent) => {
    // The browser has checked every input's range already (min, max, step, required).
    event.preventDefault();
    setSavedAt(null);
    const result = validateSettingsForm(values);
    if (!result.ok) {
      setValidationError(result.message);
      return;
    }
    setValidationError(null);
    update.mutate(result.value, {
      onSuccess: (saved) => {
        setValues(toFormValues(saved));
        setSavedAt(Date.now());
      },
    });
  };

  const setNumber = (key: NumericFieldDefinition['key'], text: string) =>
    setValues((current) => ({ ...current, numbers: { ...current.numbers, [key]: text } }));

  return (
    <form onSubmit={submit} className="space-y-6" aria-label="Settings">
      <section className="card bg-base-100 shadow" aria-label="Editable settings">
        <div className="card-body gap-5 p-4 sm:p-6">
          <div className="flex flex-col gap-1">
            <label htmlFor={toggleId} className="flex cursor-pointer items-center gap-3 font-medium">
              <input
                id={toggleId}
                type="checkbox"
                className="toggle toggle-primary"
                checked={values.download_enabled}
                onChange={(e) => setValues((current) => ({ ...current, download_enabled: e.target.checked }))}
              />
              Downloads enabled
            </label>
            <p className="text-base-content/60 text-sm">
              When on, download candidates enter the queue. Default off.
            </p>
          </div>
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            {NUMERIC_FIELDS.map((field) => (
              <NumberField
                key={field.key}
                field={field}
                value={values.numbers[field.key]}
                onChange={(text) => setNumber(field.key, text)}
              />
            ))}
          </div>
        </div>
      </section>

      <ReadOnlySettings settings={settings} />

      {validationError && (
        <div role="alert" className="alert alert-warning alert-soft">
          {validationError}
        </div>
      )}
      {update.isError && (
        <div role="alert" className="alert alert-error alert-soft">
          {updateErrorText(update.error)}
        </div>
      )}
      {savedAt !== null && (
        <div role="status" className="alert alert-success alert-soft">
          Settings updated successfully!
        </div>
      )}

      <button type="submit" className="btn btn-primary" disabled={update.isPending}>
        {update.isPending ? (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        ) : (
          <Save className="size-4" aria-hidden="true" />
        )}
        {update.isPending ? 'Saving...' : 'Save Settings'}
      </button>
    </form>
  );
}

function NumberField({
  field,
  value,
  onChange,
}: {
  field: NumericFieldDefinition;
  value: string;
  onChange: (text: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const range = SETTINGS_RANGES[field.key];
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="font-medium text-sm">
        {field.label}
      </label>
      <input
        id={inputId}
        type="number"
        inputMode={field.isInteger ? 'numeric' : 'decimal'}
        className="input w-full"
        required
        min={range.min}
        max={range.max}
        step={field.isInteger ? 1 : 'any'}
        value={value}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={hintId} className="text-base-content/60 text-xs">
        {rangeHint(field.key)}. {field.help}
      </p>
    </div>
  );
}

const CLOUD_NAMES = { acrcloud: 'ACRCloud', audd: 'AudD' } as const;

/** 'ACRCloud, AudD', or what to set when none is configured. */
export function cloudRecognizersText(names: Settings['cloud_recognizers']): string {
  return names.length > 0
    ? names.map((name) => CLOUD_NAMES[name]).join(', ')
    : 'Not configured (ACRCLOUD_HOST, ACRCLOUD_ACCESS_KEY and ACRCLOUD_ACCESS_SECRET, or AUDD_API_TOKEN)';
}

function ReadOnlySettings({ settings }: { settings: Settings }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <Lock className="size-4" aria-hidden="true" />
          Server configuration (read-only)
        </h3>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div>
            <dt className="text-base-content/70 text-sm">Max downloads per day</dt>
            <dd className="font-semibold text-lg">{settings.max_downloads_per_day}</dd>
          </div>
          <div>
            <dt className="text-base-content/70 text-sm">Tor</dt>
            <dd className="font-semibold text-lg">{settings.tor_enabled ? 'Enabled' : 'Disabled'}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-base-content/70 text-sm">Cloud recognition (songs not in the library)</dt>
            <dd className="font-semibold text-lg">{cloudRecognizersText(settings.cloud_recognizers)}</dd>
          </div>
        </dl>
        <p className="text-base-content/60 text-xs">Set in the server's configuration; not editable here.</p>
      </div>
    </section>
  );
}
