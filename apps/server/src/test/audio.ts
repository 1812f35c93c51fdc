/** A real PCM WAV file of a sine tone, for upload tests (no audio files are committed). */
export function sineWav(seconds: number, frequency = 440, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVE', 8);
  buffer.write('fmt ', 12);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) {
    buffer.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 12000), 44 + i * 2);
  }
  return buffer;
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
