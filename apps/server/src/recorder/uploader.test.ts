/**
 * What uploadChunk makes of answers that do not come from the app itself: a reverse proxy in front
 * of it (nginx's HTML error pages, 413 body limits, 429 rate limits), or a wrong --server. These
 * never set a chunk aside: they are not a verdict on the chunk.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/recorder-support.js';
import type { SpoolChunk } from './spool.js';
import { uploadChunk } from './uploader.js';

let server: http.Server;
let base = '';
const answers = new Map<string, { status: number; type: string; body: string }>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = answers.get(request.url?.split('/api/')[0] ?? '') ?? answers.get('')!;
      response.writeHead(answer.status, { 'content-type': answer.type });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function chunk(): SpoolChunk {
  const file = path.join(tempDir('wcs-upload-unit-'), 'chunk-000000.ogg');
  fs.writeFileSync(file, Buffer.alloc(2048, 1));
  return {
    session: {
      session_id: 'unit',
      started_at: '2026-11-21T20:00:00.000Z',
      event_id: null,
      filename: 'unit',
      chunk_seconds: 30,
    },
    chunkNumber: 0,
    file,
    durationSeconds: 30,
    recordedAt: '2026-11-21T20:00:00.000Z',
  };
}

const html = (title: string) =>
  `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`;

async function answer(status: number, type: string, body: string) {
  answers.set('', { status, type, body });
  return uploadChunk(base, chunk());
}

describe('uploadChunk against a proxy or a wrong server', () => {
  it('retries on 5xx, 408, 413 and 429', async () => {
    expect(await answer(502, 'text/html', html('502 Bad Gateway'))).toEqual({
      kind: 'retry',
      reason: 'server error 502',
      unreachable: false,
    });
    expect(await answer(503, 'application/json', '{"message":"Database unavailable"}')).toMatchObject({
      kind: 'retry',
      reason: 'server error 503: Database unavailable',
    });
    expect(await answer(429, 'text/plain', 'slow down')).toMatchObject({
      kind: 'retry',
      reason: 'server busy (429)',
    });
    expect(await answer(408, 'text/plain', '')).toMatchObject({ kind: 'retry', reason: 'server busy (408)' });
    const tooLarge = await answer(413, 'text/html', html('413 Request Entity Too Large'));
    expect(tooLarge).toMatchObject({ kind: 'retry' });
    expect(tooLarge.kind === 'retry' && tooLarge.reason).toMatch(
      /refuses a chunk of 2048 bytes as too large \(413\); raise WCS_MAX_UPLOAD_MB or the proxy's body limit/,
    );
  });

  it('does not take a 4xx without the API error format, or an unknown API path, as a verdict', async () => {
    expect(await answer(404, 'text/html', html('404 Not Found'))).toMatchObject({
      kind: 'retry',
      reason: expect.stringMatching(/^HTTP 404 from http:\/\/127\.0\.0\.1:\d+ without the API's answer/),
    });
    expect(
      await answer(404, 'application/json', '{"message":"No such API call: POST /api/recordings/upload"}'),
    ).toMatchObject({ kind: 'retry' });
    expect(await answer(200, 'text/html', '<html>a captive portal</html>')).toMatchObject({
      kind: 'retry',
      reason: expect.stringMatching(/^HTTP 200 that is not an upload answer/),
    });
  });

  it('takes a JSON 4xx with a message as the server refusing the chunk', async () => {
    expect(
      await answer(
        409,
        'application/json',
        '{"message":"Chunk 0 of session unit was already uploaded with different content"}',
      ),
    ).toEqual({
      kind: 'rejected',
      status: 409,
      message: 'Chunk 0 of session unit was already uploaded with different content',
    });
    expect(
      await answer(
        400,
        'application/json; charset=utf-8',
        '{"message":"metadata.duration_seconds: too big"}',
      ),
    ).toMatchObject({
      kind: 'rejected',
      status: 400,
    });
  });

  it('says a closed port is unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await uploadChunk(`http://127.0.0.1:${port}`, chunk())).toEqual({
      kind: 'retry',
      reason: 'ECONNREFUSED',
      unreachable: true,
    });
  });
});
