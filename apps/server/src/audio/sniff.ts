/**
 * Recognises an audio container from its first bytes, so a mislabelled or non-audio upload is
 * refused before it is stored. Returns the file extension to store it under, or null.
 */
export type AudioContainer = 'webm' | 'ogg' | 'wav' | 'mp3' | 'flac' | 'm4a' | 'aiff';

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  bytes.length >= start + text.length &&
  [...text].every((char, i) => bytes[start + i] === char.charCodeAt(0));

export function sniffAudioContainer(head: Uint8Array): AudioContainer | null {
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return 'webm'; // EBML: WebM and Matroska
  }
  if (ascii(head, 0, 'OggS')) return 'ogg';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'FORM') && (ascii(head, 8, 'AIFF') || ascii(head, 8, 'AIFC'))) return 'aiff';
  if (ascii(head, 4, 'ftyp')) return 'm4a'; // ISO base media: M4A, MP4 audio
  if (ascii(head, 0, 'ID3')) return 'mp3';
  // MPEG audio frame sync (11 set bits), layer bits not 00: raw MP3 and ADTS AAC.
  if (
    head.length >= 2 &&
    head[0] === 0xff &&
    ((head[1] ?? 0) & 0xe0) === 0xe0 &&
    ((head[1] ?? 0) & 0x06) !== 0
  ) {
    return 'mp3';
  }
  return null;
}

/** Content types an uploader may declare for an audio chunk (browsers label WebM audio video/webm). */
export function isAcceptedAudioContentType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('audio/') ||
    type === 'video/webm' ||
    type === 'video/ogg' ||
    type === 'application/ogg' ||
    type === 'application/octet-stream'
  );
}
