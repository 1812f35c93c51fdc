/**
 * Test support: Serato's tagged chunks built byte by byte (4-byte ASCII tag, 4-byte big-endian
 * length, payload; strings UTF-16BE), independently of serato-chunks.ts, so that the Serato
 * readers are checked against the layout rather than against their own encoder. Used by the
 * crate and database V2 tests; nothing else imports it.
 */

export function field(tag: string, payload: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  return Buffer.concat([Buffer.from(tag, 'ascii'), length, payload]);
}

export function utf16(text: string): Buffer {
  const bytes = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes.writeUInt16BE(text.charCodeAt(i), i * 2);
  return bytes;
}

export function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
