import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  addRecentSong,
  BrowserRecorder,
  createDeviceChunkStore,
  type RecognizedSongItem,
  type RecorderSnapshot,
} from '../../lib/recorder';
import type { RecordingSocket } from '../../lib/socket';
import { SOCKET_FAILED_TEXT } from '../../lib/socket-texts';
import { recordingKeys } from './queries';

let pageRecorder: BrowserRecorder | undefined;

/**
 * One recorder for the whole page, not per mount: a recording goes on while the DJ looks at other
 * screens, and the panel shows it again on return. Unsent chunks (also from before a reload) are
 * sent whenever the browser comes back online.
 */
function sharedRecorder(): BrowserRecorder {
  if (!pageRecorder) {
    const recorder = new BrowserRecorder(createDeviceChunkStore());
    window.addEventListener('online', () => void recorder.resumeUploads());
    pageRecorder = recorder;
  }
  return pageRecorder;
}

export interface LiveState {
  isConnected: boolean;
  /** 'Connection error' / 'Connection failed', cleared once connected again. */
  error: string | null;
  /** Newest first, at most 10. */
  recentSongs: RecognizedSongItem[];
}

/**
 * The page's recorder with its live socket: recorder snapshots, the socket's state and the songs
 * recognised in this session. Unsent chunks of earlier visits are sent again on mount.
 */
export function useBrowserRecorder() {
  const queryClient = useQueryClient();
  const [recorder] = useState(sharedRecorder);

  useEffect(() => {
    void recorder.resumeUploads();
  }, [recorder]);

  const snapshot: RecorderSnapshot = useSyncExternalStore(recorder.subscribe, recorder.getSnapshot);

  const [live, setLive] = useState<LiveState>({ isConnected: false, error: null, recentSongs: [] });
  const isActive = snapshot.status !== 'idle';
  const sessionId = isActive ? snapshot.sessionId : null;

  // Closing or reloading the tab ends a recording: the browser asks first.
  useEffect(() => {
    if (!isActive) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isActive]);

  useEffect(() => {
    if (!sessionId) {
      setLive((previous) => ({ ...previous, isConnected: false, error: null }));
      return;
    }
    setLive({ isConnected: false, error: null, recentSongs: [] });
    // The socket's module (with zod, which checks every message) loads only for a live session,
    // so the screen itself paints without it.
    let socket: RecordingSocket | null = null;
    let isClosed = false;
    const connect = (Socket: typeof RecordingSocket) => {
      if (isClosed) return;
      socket = new Socket(sessionId, {
        onConnectionChange: (isConnected) =>
          setLive((previous) => ({ ...previous, isConnected, error: isConnected ? null : previous.error })),
        onError: (error) => setLive((previous) => ({ ...previous, error })),
        onMessage: (message) => {
          if (message.type === 'song_recognized') {
            const { title, artist, timestamp, confidence } = message.data;
            setLive((previous) => ({
              ...previous,
              recentSongs: addRecentSong(previous.recentSongs, { title, artist, timestamp, confidence }),
            }));
          }
          if (message.type === 'status' || message.type === 'song_recognized') {
            void queryClient.invalidateQueries({ queryKey: recordingKeys.all });
          }
          if (message.type === 'error') console.warn('Live socket error:', message.data.message);
        },
      });
      socket.connect();
    };
    import('../../lib/socket')
      .then((module) => connect(module.RecordingSocket))
      .catch((error: unknown) => {
        console.error('Could not load the live socket', error);
        if (!isClosed) setLive((previous) => ({ ...previous, error: SOCKET_FAILED_TEXT }));
      });
    return () => {
      isClosed = true;
      socket?.close();
    };
  }, [sessionId, queryClient]);

  // Each acknowledged chunk changes the recording's counts: refresh the lists below the panel.
  const lastUploaded = useRef(0);
  useEffect(() => {
    if (snapshot.uploaded !== lastUploaded.current) {
      lastUploaded.current = snapshot.uploaded;
      if (snapshot.uploaded > 0) void queryClient.invalidateQueries({ queryKey: recordingKeys.all });
    }
  }, [snapshot.uploaded, queryClient]);

  return { recorder, snapshot, live };
}
