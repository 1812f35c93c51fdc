import { RECORDING } from '@wcs/contract';
import { AlertTriangle, CloudUpload, Mic, Pause, Play, RefreshCw, Square, Wifi, X } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { Badge, type BadgeTone } from '../../components/badge';
import { StatTile } from '../../components/stat-tile';
import { listItems } from '../../lib/api';
import { formatHms, formatMb } from '../../lib/format';
import {
  type InputDevice,
  isLevelWarning,
  isRecordingSupported,
  levelTone,
  listInputDevices,
  type RecorderStatus,
  UNSUPPORTED_TEXT,
} from '../../lib/recorder';
import { useSettings } from '../../lib/settings';
import { RECORDER_EVENT_LIMIT, useEventOptions } from './queries';
import { formatTimeOfDay } from './recording-status';
import { useBrowserRecorder } from './use-browser-recorder';

const STATUS_BADGES: Record<RecorderStatus, { label: string; tone: BadgeTone }> = {
  idle: { label: 'Idle', tone: 'ghost' },
  recording: { label: 'Recording', tone: 'error' },
  paused: { label: 'Paused', tone: 'warning' },
};

const LEVEL_CLASSES = {
  error: 'progress-error',
  accent: 'progress-accent',
  success: 'progress-success',
} as const;

/** The browser-recording panel: choose event and microphone, record in chunks, watch the upload. */
export function BrowserRecorderPanel() {
  const isSupported = isRecordingSupported();
  const headingId = useId();
  const { recorder, snapshot, live } = useBrowserRecorder();
  const events = useEventOptions(RECORDER_EVENT_LIMIT);
  const eventList = listItems(events.data);
  const settings = useSettings();

  // '' is "no event"; undefined until the user chooses, so the first event is preselected.
  const [chosenEventId, setChosenEventId] = useState<string | undefined>(undefined);
  const selectedEventId = chosenEventId ?? (eventList[0] ? String(eventList[0].event_id) : '');
  const [newEventName, setNewEventName] = useState('');
  const [devices, setDevices] = useState<InputDevice[]>([]);
  const [deviceId, setDeviceId] = useState('');
  const [deviceError, setDeviceError] = useState<string | null>(null);

  const refreshDevices = useCallback(async () => {
    if (!isRecordingSupported()) return;
    try {
      setDevices(await listInputDevices());
      setDeviceError(null);
    } catch (error) {
      console.error('Could not list audio inputs', error);
      setDeviceError('Could not list the audio inputs');
    }
  }, []);

  useEffect(() => {
    void refreshDevices();
  }, [refreshDevices]);

  const status = snapshot.status;
  const isIdle = status === 'idle';
  const hasEvent = newEventName.trim() !== '' || selectedEventId !== '';
  const badge = STATUS_BADGES[status];

  const start = async () => {
    if (!recorder) return;
    recorder.clearErrors();
    const name = newEventName.trim();
    await recorder.start({
      deviceId: deviceId || undefined,
      ...(name ? { eventName: name } : { eventId: selectedEventId ? Number(selectedEventId) : null }),
    });
    // With permission granted, the inputs now have their real names.
    void refreshDevices();
  };

  return (
    <section aria-labelledby={headingId} className="card bg-base-100 shadow">
      <div className="card-body gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="card-title">
            <Mic className="size-5" aria-hidden="true" />
            Browser Recording
          </h2>
          <Badge tone={badge.tone} size="lg">
            {status !== 'idle' && (
              <span className="mr-1 inline-block size-2 animate-pulse rounded-full bg-current" />
            )}
            {badge.label}
          </Badge>
        </div>

        {!isSupported ? (
          <div role="alert" className="alert alert-warning">
            <AlertTriangle className="size-5" aria-hidden="true" />
            <span>{UNSUPPORTED_TEXT}</span>
          </div>
        ) : (
          <>
            {isIdle ? (
              <div className="grid gap-4 md:grid-cols-2">
                <label className="form-control w-full">
                  <span className="label-text mb-1 block">Event</span>
                  <select
                    className="select select-bordered w-full"
                    value={selectedEventId}
                    onChange={(event) => setChosenEventId(event.target.value)}
                    disabled={events.isPending}
                  >
                    <option value="">No event</option>
                    {eventList.map((event) => (
                      <option key={event.event_id} value={event.event_id}>
                        {event.event_name}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="form-control w-full">
                  <span className="label-text mb-1 block">New event name (optional)</span>
                  <input
                    type="text"
                    className="input input-bordered w-full"
                    placeholder="e.g. Friday Night Social"
                    maxLength={200}
                    value={newEventName}
                    onChange={(event) => setNewEventName(event.target.value)}
                  />
                  {newEventName.trim() !== '' && (
                    <span className="mt-1 block text-base-content/60 text-xs">
                      A new event with this name is used instead of the selection.
                    </span>
                  )}
                </label>
                <div className="md:col-span-2">
                  <label htmlFor={`${headingId}-device`} className="label-text mb-1 block">
                    Input device
                  </label>
                  <div className="flex gap-2">
                    <select
                      id={`${headingId}-device`}
                      className="select select-bordered w-full"
                      value={deviceId}
                      onChange={(event) => setDeviceId(event.target.value)}
                    >
                      <option value="">Default input</option>
                      {devices
                        .filter((device) => device.deviceId !== '' && device.deviceId !== 'default')
                        .map((device) => (
                          <option key={device.deviceId} value={device.deviceId}>
                            {device.label}
                          </option>
                        ))}
                    </select>
                    <button
                      type="button"
                      className="btn btn-square btn-outline"
                      aria-label="Refresh devices"
                      title="Refresh devices"
                      onClick={() => void refreshDevices()}
                    >
                      <RefreshCw className="size-4" aria-hidden="true" />
                    </button>
                  </div>
                  {deviceError && <p className="mt-1 text-error text-sm">{deviceError}</p>}
                </div>
                {!hasEvent && (
                  <p className="text-base-content/70 text-sm md:col-span-2">
                    No event selected - you can assign one later
                  </p>
                )}
                <div className="md:col-span-2">
                  <button
                    type="button"
                    className="btn btn-error"
                    onClick={() => void start()}
                    disabled={!recorder}
                  >
                    <Mic className="size-4" aria-hidden="true" />
                    Start Recording
                  </button>
                </div>
              </div>
            ) : (
              <ActiveRecording
                status={status}
                elapsedSeconds={snapshot.elapsedSeconds}
                level={snapshot.level}
                onPause={() => recorder?.pause()}
                onResume={() => recorder?.resume()}
                onStop={() => void recorder?.stop()}
                onCancel={() => void recorder?.cancel()}
              />
            )}

            {snapshot.error && (
              <div role="alert" className="alert alert-error">
                <AlertTriangle className="size-5" aria-hidden="true" />
                <span>{snapshot.error}</span>
              </div>
            )}

            {(!isIdle || snapshot.chunks > 0) && (
              <div className="grid grid-cols-3 gap-2">
                <StatTile label="Chunks" value={snapshot.chunks} />
                <StatTile label="Uploaded" value={snapshot.uploaded} />
                <StatTile label="Size" value={formatMb(snapshot.bytes)} />
              </div>
            )}

            <div className="flex flex-wrap gap-4 text-sm" aria-live="polite">
              {snapshot.isUploading && (
                <span className="flex items-center gap-2 text-info">
                  <CloudUpload className="size-4 animate-pulse" aria-hidden="true" />
                  Uploading chunk...
                </span>
              )}
              {!isIdle && live.isConnected && (
                <span className="flex items-center gap-2 text-success">
                  <Wifi className="size-4" aria-hidden="true" />
                  Live recognition active
                </span>
              )}
              {!isIdle && live.error && <span className="text-warning">{live.error}</span>}
              {snapshot.pendingUploads > 0 && !snapshot.isUploading && (
                <span className="text-base-content/70">
                  {snapshot.pendingUploads} {snapshot.pendingUploads === 1 ? 'chunk' : 'chunks'} waiting to
                  upload
                </span>
              )}
            </div>

            {snapshot.uploadError && (
              <div role="alert" className="alert alert-warning">
                <AlertTriangle className="size-5" aria-hidden="true" />
                <span>{snapshot.uploadError}</span>
              </div>
            )}

            {!isIdle && settings.data && settings.data.cloud_recognizers.length === 0 && (
              <p className="text-base-content/60 text-xs">
                Songs are recognised from your library only: no cloud recogniser is configured for songs you
                do not have (see Settings).
              </p>
            )}

            {!isIdle && (
              <div>
                <h3 className="mb-2 font-semibold">Recognised songs</h3>
                {live.recentSongs.length === 0 ? (
                  <p className="text-base-content/60 text-sm">No songs recognised yet in this recording.</p>
                ) : (
                  <ul className="divide-y divide-base-300" aria-label="Recognised songs">
                    {live.recentSongs.map((song) => (
                      <li
                        key={`${song.timestamp}-${song.title}-${song.artist}`}
                        className="flex items-center justify-between gap-2 py-2"
                      >
                        <div className="min-w-0">
                          <p className="truncate font-medium">{song.title}</p>
                          <p className="truncate text-base-content/70 text-sm">{song.artist}</p>
                        </div>
                        <div className="flex shrink-0 items-center gap-2 text-sm">
                          <span>{formatTimeOfDay(song.timestamp)}</span>
                          {song.confidence !== null && (
                            <Badge tone="info" size="sm">
                              {Math.round(song.confidence * 100)}%
                            </Badge>
                          )}
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </>
        )}

        <ul className="list-inside list-disc text-base-content/60 text-xs">
          <li>Audio uploads in chunks every {RECORDING.chunkSeconds} seconds while you record.</li>
          <li>Keep this tab open while recording.</li>
          <li>Works best in desktop Chrome, Firefox and Safari.</li>
        </ul>
      </div>
    </section>
  );
}

interface ActiveRecordingProps {
  status: RecorderStatus;
  elapsedSeconds: number;
  level: number;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  onCancel: () => void;
}

function ActiveRecording({
  status,
  elapsedSeconds,
  level,
  onPause,
  onResume,
  onStop,
  onCancel,
}: ActiveRecordingProps) {
  const levelId = useId();
  return (
    <div className="space-y-3">
      <div role="timer" aria-label="Elapsed time" className="font-mono text-4xl tabular-nums">
        {formatHms(elapsedSeconds)}
      </div>
      <div>
        <label htmlFor={levelId} className="label-text text-sm">
          Audio level
        </label>
        <progress
          id={levelId}
          className={`progress w-full ${LEVEL_CLASSES[levelTone(level)]}`}
          value={level}
          max={100}
        />
        {isLevelWarning(level) && (
          <p className="text-error text-sm">Input level is very high - lower the gain to avoid distortion.</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {status === 'paused' ? (
          <button type="button" className="btn btn-primary" onClick={onResume}>
            <Play className="size-4" aria-hidden="true" />
            Resume
          </button>
        ) : (
          <button type="button" className="btn btn-warning" onClick={onPause}>
            <Pause className="size-4" aria-hidden="true" />
            Pause
          </button>
        )}
        <button type="button" className="btn btn-neutral" onClick={onStop}>
          <Square className="size-4" aria-hidden="true" />
          Stop
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          <X className="size-4" aria-hidden="true" />
          Cancel
        </button>
      </div>
    </div>
  );
}
