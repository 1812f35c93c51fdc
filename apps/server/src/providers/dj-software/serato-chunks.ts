/**
 * Serato's binary files ('database V2', 'Subcrates/*.crate', 'History/Sessions/*.session') are a
 * sequence of tagged chunks: a 4-byte ASCII tag, a 4-byte big-endian length, then that many bytes
 * of payload. A payload is, by the tag, a nested sequence of chunks (tags starting with 'o'), a
 * UTF-16BE string ('t...', 'p...'), a big-endian integer ('u...') or a flag byte ('b...').
 * Session entries use numbered fields inside their 'adat' chunk (see serato-session.ts).
 */
import { type DjFormat, DjFormatError } from './types.js';

export interface Chunk {
  tag: string;
  data: Buffer;
}

/** The chunks of a buffer, in order; a DjFormatError when a length runs past the end. */
export function readChunks(buffer: Buffer, format: DjFormat): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    if (offset + 8 > buffer.length) {
      throw new DjFormatError(
        format,
        `Truncated Serato file: ${buffer.length - offset} stray bytes at offset ${offset}.`,
      );
    }
    const tag = buffer.toString('latin1', offset, offset + 4);
    const length = buffer.readUInt32BE(offset + 4);
    const end = offset + 8 + length;
    if (end > buffer.length) {
      throw new DjFormatError(
        format,
        `Truncated Serato file: chunk '${tag}' at offset ${offset} claims ${length} bytes, ${buffer.length - offset - 8} remain.`,
      );
    }
    chunks.push({ tag, data: buffer.subarray(offset + 8, end) });
    offset = end;
  }
  return chunks;
}

/** A UTF-16BE string, without the trailing NUL some writers add. */
export function utf16be(data: Buffer): string {
  const even = data.subarray(0, data.length - (data.length % 2));
  const swapped = Buffer.from(even);
  swapped.swap16();
  return swapped.toString('utf16le').replace(/\0+$/, '');
}

export function encodeUtf16be(value: string): Buffer {
  const buffer = Buffer.from(value, 'utf16le');
  buffer.swap16();
  return buffer;
}

export function chunk(tag: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(tag, 0, 4, 'latin1');
  header.writeUInt32BE(data.length, 4);
  return Buffer.concat([header, data]);
}
