import { z } from 'zod';
import { Timestamp } from './common.js';

/**
 * Messages of the live socket /api/ws/recordings/:session_id. The server sends exactly these
 * shapes (built with `serverMessage`); the client sends `ping`.
 */
export const ServerMessages = {
  connected: z.object({ session_id: z.string() }),
  song_recognized: z.object({
    song_id: z.number().int().nullable(),
    title: z.string(),
    artist: z.string(),
    /** When the song started, ISO. */
    timestamp: Timestamp,
    ended_at: Timestamp.nullable(),
    /** 0-1; null when the recogniser gives no score (AudD). */
    confidence: z.number().min(0).max(1).nullable(),
    recording_id: z.number().int(),
  }),
  chunk_uploaded: z.object({
    recording_id: z.number().int(),
    chunk_number: z.number().int(),
    size_bytes: z.number().int(),
    chunk_count: z.number().int(),
    duration_minutes: z.number(),
  }),
  status: z.object({
    recording_id: z.number().int(),
    state: z.enum(['uploaded', 'processing', 'processed', 'failed']),
    message: z.string(),
    songs_recognized: z.number().int(),
  }),
  error: z.object({ message: z.string() }),
  pong: z.object({ timestamp: z.number() }),
} as const;

export type ServerMessageType = keyof typeof ServerMessages;
export type ServerMessageData<T extends ServerMessageType> = z.infer<(typeof ServerMessages)[T]>;
export type ServerMessage = {
  [T in ServerMessageType]: { type: T; data: ServerMessageData<T> };
}[ServerMessageType];

export function serverMessage<T extends ServerMessageType>(
  type: T,
  data: ServerMessageData<T>,
): { type: T; data: ServerMessageData<T> } {
  return { type, data: ServerMessages[type].parse(data) as ServerMessageData<T> };
}

export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), timestamp: z.number() }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const wsRecordingsPath = (sessionId: string) => `/api/ws/recordings/${encodeURIComponent(sessionId)}`;
