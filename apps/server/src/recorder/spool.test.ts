/** The spool's rules on small files: what is ready, what a crash leaves, what the server accepts. */
import fs from 'node:fs';
import path from 'node:path';
import { UploadMetadata } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/recorder-support.js';
import { captureArgs } from './capture.js';
import {
  chunkFileName,
  LIST_FILE,
  newSessionId,
  parseSegmentList,
  type SessionInfo,
  Spool,
} from './spool.js';
import { chunkMetadata, normaliseServerUrl } from './uploader.js';

const session = (id: string, startedAt = '2026-11-21T20:00:00.000Z'): SessionInfo => ({
  session_id: id,
  started_at: startedAt,
  event_id: 7,
  filename: 'pi-kitchen 2026-11-21 20:00 UTC',
  chunk_seconds: 30,
});

function writeChunk(dir: string, n: number, bytes: string | Buffer = 'OggS fake but present') {
  fs.writeFileSync(path.join(dir, chunkFileName(n)), bytes);
}

describe('parseSegmentList', () => {
  it('reads ffmpeg csv lines and ignores a torn last line', () => {
    const list = parseSegmentList(
      'chunk-000000.ogg,0.000000,30.000000\nchunk-000001.ogg,30.000000,60.000000\nchunk-000002.ogg,60.0',
    );
    expect([...list.entries()]).toEqual([
      [0, { start: 0, end: 30 }],
      [1, { start: 30, end: 60 }],
    ]);
    expect(parseSegmentList('').size).toBe(0);
    expect(parseSegmentList('other.ogg,0,1\nchunk-000003.ogg,5,4\n').size).toBe(0);
  });
});

describe('session ids and metadata', () => {
  it('makes session ids the upload API accepts, whatever the host name', () => {
    const id = newSessionId('Pi Kitchen_(living room)', new Date('2026-11-21T20:00:05.123Z'), 'a1b2c3');
    expect(id).toBe('rec-Pi-Kitchen-living-room-20261121T200005Z-a1b2c3');
    expect(newSessionId('', new Date(0), 'x')).toBe('rec-device-19700101T000000Z-x');
    const metadata = chunkMetadata({
      session: session(id),
      chunkNumber: 3,
      file: '/x/chunk-000003.ogg',
      durationSeconds: 30,
      recordedAt: '2026-11-21T20:01:30.000Z',
    });
    expect(UploadMetadata.parse(metadata)).toEqual({
      session_id: id,
      chunk_number: 3,
      duration_seconds: 30,
      recorded_at: '2026-11-21T20:01:30.000Z',
      filename: 'pi-kitchen 2026-11-21 20:00 UTC',
      event_id: 7,
      source: 'device',
    });
  });

  it('normalises the server URL and refuses what is not http(s)', () => {
    expect(normaliseServerUrl('http://192.168.1.10:8080')).toBe('http://192.168.1.10:8080');
    expect(normaliseServerUrl('http://dj.local:8080/api/')).toBe('http://dj.local:8080');
    expect(normaliseServerUrl('https://example.org/wcs/')).toBe('https://example.org/wcs');
    expect(() => normaliseServerUrl('ftp://192.168.1.10/')).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
    expect(() => normaliseServerUrl('192.168.1.10:8080')).toThrow(/must be a URL such as/);
    expect(() => normaliseServerUrl('not a url')).toThrow(/must be a URL such as/);
  });

  it('builds the ffmpeg command for ALSA and for other inputs', () => {
    const alsa = captureArgs({
      source: { kind: 'alsa', device: 'plughw:CARD=Mic,DEV=0' },
      dir: '/s',
      chunkSeconds: 30,
    });
    expect(alsa.join(' ')).toContain(
      '-f alsa -i plughw:CARD=Mic,DEV=0 -vn -ac 1 -ar 48000 -c:a libopus -b:a 128k',
    );
    expect(alsa.join(' ')).toContain('-f segment -segment_time 30 -segment_format ogg');
    expect(alsa.at(-1)).toBe('/s/chunk-%06d.ogg');
    const lavfi = captureArgs({
      source: { kind: 'input', spec: 'lavfi:sine=f=440', realtime: true },
      dir: '/s',
      chunkSeconds: 5,
    });
    expect(lavfi.join(' ')).toContain('-re -f lavfi -i sine=f=440 ');
    const file = captureArgs({
      source: { kind: 'input', spec: 'night.wav', realtime: false },
      dir: '/s',
      chunkSeconds: 5,
    });
    expect(file.join(' ')).toContain('-loglevel error -i night.wav -vn');
  });
});

describe('Spool.pending', () => {
  it('holds back the chunk ffmpeg may still be writing, and releases it when capture ends', async () => {
    const spool = new Spool(tempDir('wcs-spool-unit-'));
    const dir = await spool.createSession(session('active'));
    writeChunk(dir, 0);
    writeChunk(dir, 1);
    writeChunk(dir, 2);
    // 0 and 1 are listed; 1 is the last listed and 2 (being written) is not.
    fs.writeFileSync(
      path.join(dir, LIST_FILE),
      'chunk-000000.ogg,0.000000,30.000000\nchunk-000001.ogg,30.000000,60.000000\n',
    );
    const first = await spool.pending();
    expect(first.ready.map((chunk) => chunk.chunkNumber)).toEqual([0, 1]);
    expect(first.ready[1]).toMatchObject({ durationSeconds: 30, recordedAt: '2026-11-21T20:00:30.000Z' });

    fs.rmSync(path.join(dir, chunkFileName(2)));
    const listedButLast = await spool.pending();
    // Chunk 1 is listed but nothing follows it yet: its trailer may still be in ffmpeg's buffer.
    expect(listedButLast.ready.map((chunk) => chunk.chunkNumber)).toEqual([0]);

    spool.endActiveSession();
    expect((await spool.pending()).ready.map((chunk) => chunk.chunkNumber)).toEqual([0, 1]);
  });

  it('orders sessions oldest first, drops empty finished ones and what a crash left empty', async () => {
    const spool = new Spool(tempDir('wcs-spool-unit-'));
    const newer = await spool.createSession(session('b-newer', '2026-11-21T22:00:00.000Z'));
    const older = await spool.createSession(session('a-older', '2026-11-21T21:00:00.000Z'));
    const empty = await spool.createSession(session('c-empty', '2026-11-21T20:00:00.000Z'));
    spool.endActiveSession();
    writeChunk(newer, 0);
    fs.writeFileSync(path.join(newer, LIST_FILE), 'chunk-000000.ogg,0,30\n');
    writeChunk(older, 4);
    fs.writeFileSync(path.join(older, LIST_FILE), 'chunk-000004.ogg,120,150\n');
    writeChunk(older, 5, Buffer.alloc(0)); // opened by ffmpeg, then the power went
    const { ready, broken } = await spool.pending();
    expect(ready.map((chunk) => `${chunk.session.session_id}#${chunk.chunkNumber}`)).toEqual([
      'a-older#4',
      'b-newer#0',
    ]);
    expect(broken).toEqual([]);
    expect(fs.existsSync(empty)).toBe(false);
    expect(fs.existsSync(path.join(older, chunkFileName(5)))).toBe(false);
    // A stray file and a folder without session.json are not sessions.
    fs.mkdirSync(path.join(spool.dir, 'lost+found'));
    expect((await spool.sessions()).map((s) => s.session_id)).toEqual(['a-older', 'b-newer']);
  });

  it('reports an unlisted chunk it cannot decode as broken, and setAside keeps it with the reason', async () => {
    const spool = new Spool(tempDir('wcs-spool-unit-'));
    const dir = await spool.createSession(session('crashed'));
    spool.endActiveSession();
    writeChunk(dir, 0, 'garbage that no decoder reads');
    const { ready, broken } = await spool.pending();
    expect(ready).toEqual([]);
    expect(broken).toHaveLength(1);
    expect(broken[0]!.reason).toMatch(/^unreadable chunk left by an interrupted capture: could not decode/);
    const target = await spool.setAside(broken[0]!, broken[0]!.reason);
    expect(target).toBe(path.join(spool.dir, 'rejected', 'crashed', 'chunk-000000.ogg'));
    expect(fs.readFileSync(`${target}.reason.txt`, 'utf8')).toContain('unreadable chunk');
    expect(
      JSON.parse(fs.readFileSync(path.join(spool.dir, 'rejected', 'crashed', 'session.json'), 'utf8')),
    ).toMatchObject({ session_id: 'crashed' });
    expect((await spool.pending()).ready).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
