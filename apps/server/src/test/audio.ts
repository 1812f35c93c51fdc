import { monoWav } from '../audio/wav.js';

/** A real PCM WAV file of a sine tone, for upload tests (no audio files are committed). */
export function sineWav(seconds: number, frequency = 440, sampleRate = 8000): Buffer {
  return monoWav(
    sampleRate,
    Math.round(seconds * sampleRate),
    (i) => Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 12000,
  );
}

export interface MultipartField {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, built by hand so tests control every byte and header. */
export function multipart(fields: MultipartField[]): { body: Buffer; contentType: string } {
  const boundary = `----wcs-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const field of fields) {
    const disposition = `form-data; name="${field.name}"${field.filename ? `; filename="${field.filename}"` : ''}`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (field.contentType) headers.push(`Content-Type: ${field.contentType}`);
    parts.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`));
    parts.push(typeof field.value === 'string' ? Buffer.from(field.value) : field.value);
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface ChunkUpload {
  session_id: string;
  chunk_number: number;
  duration_seconds?: number;
  audio?: Buffer;
  contentType?: string;
  [key: string]: unknown;
}

/** The upload body the browser recorder and the device send. */
export function chunkUpload({ audio, contentType, ...metadata }: ChunkUpload) {
  return multipart([
    { name: 'metadata', value: JSON.stringify({ duration_seconds: 30, source: 'web_browser', ...metadata }) },
    {
      name: 'audio_file',
      value: audio ?? sineWav(1),
      filename: `chunk-${metadata.chunk_number}.wav`,
      contentType: contentType ?? 'audio/wav',
    },
  ]);
}

/** `app.inject` options of POST /api/recordings/upload with a multipart body (from `multipart` or `chunkUpload`). */
export function uploadInject({ body, contentType }: { body: Buffer; contentType: string }) {
  return {
    method: 'POST' as const,
    url: '/api/recordings/upload',
    payload: body,
    headers: { 'content-type': contentType },
  };
}
