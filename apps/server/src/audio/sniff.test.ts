import { describe, expect, it } from 'vitest';
import { isAcceptedAudioContentType, sniffAudioContainer } from './sniff.js';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)),
  );

describe('sniffAudioContainer', () => {
  it.each([
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f])],
    ['ogg', bytes('OggS', [0, 2])],
    ['wav', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['flac', bytes('fLaC', [0, 0, 0, 0x22])],
    ['aiff', bytes('FORM', [0, 0, 0, 0], 'AIFF')],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypM4A ')],
    ['mp3', bytes('ID3', [4, 0])],
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x64])],
  ])('recognises %s', (expected, head) => {
    expect(sniffAudioContainer(head)).toBe(expected);
  });

  it('refuses text, images and empty input', () => {
    expect(sniffAudioContainer(bytes('hello world'))).toBeNull();
    expect(sniffAudioContainer(bytes([0x89], 'PNG', [0x0d, 0x0a]))).toBeNull();
    expect(sniffAudioContainer(new Uint8Array())).toBeNull();
    expect(sniffAudioContainer(bytes('RIFF', [0, 0, 0, 0], 'AVI '))).toBeNull();
  });
});

describe('isAcceptedAudioContentType', () => {
  it('accepts audio types and what browsers send for WebM audio', () => {
    expect(isAcceptedAudioContentType('audio/webm;codecs=opus')).toBe(true);
    expect(isAcceptedAudioContentType('video/webm')).toBe(true);
    expect(isAcceptedAudioContentType('audio/wav')).toBe(true);
  });
  it('refuses other types', () => {
    expect(isAcceptedAudioContentType('text/plain')).toBe(false);
    expect(isAcceptedAudioContentType('image/png')).toBe(false);
    expect(isAcceptedAudioContentType('application/json')).toBe(false);
  });
});
