/**
 * What uploadChunk makes of answers that do not come from the app itself: a reverse proxy in front
 * of it (nginx's HTML error pages, 413 body limits, 429 rate limits), or a wrong --server. These
 * never set a chunk aside: they are not a verdict on the chunk. Nor are the server's refusals of
 * the recorder itself (401, 403, 421), which stop it. Also how --server, --token and --ca are
 * checked before anything is sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/recorder-support.js';
import type { SpoolChunk } from './spool.js';
import { serverTarget, uploadChunk } from './uploader.js';

let server: http.Server;
let base = '';
const answers = new Map<string, { status: number; type: string; body: string }>();
const authorizations: Array<string | undefined> = [];
const TOKEN = 'wcs_unit-test-token';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization);
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
  return uploadChunk(serverTarget({ server: base, token: TOKEN }), chunk());
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

  it('takes 401, 403 and 421 with the API message as refusing the recorder, not the chunk', async () => {
    const revoked = 'The token pi was revoked on 2026-11-21T20:00:00.000Z: ask an admin for a new one';
    expect(await answer(401, 'application/json', JSON.stringify({ message: revoked }))).toEqual({
      kind: 'denied',
      status: 401,
      message: revoked,
    });
    expect(
      await answer(
        403,
        'application/json',
        '{"message":"The token pi has the role viewer; this needs dj. Ask an admin."}',
      ),
    ).toMatchObject({ kind: 'denied', status: 403 });
    expect(
      await answer(
        421,
        'application/json',
        '{"message":"This server does not answer for the name pi.local"}',
      ),
    ).toMatchObject({ kind: 'denied', status: 421 });
    // A proxy's login page is not the server's verdict: waited out like the other proxy answers.
    expect(await answer(401, 'text/html', html('401 Authorization Required'))).toMatchObject({
      kind: 'retry',
    });
  });

  it('sends the token as Authorization: Bearer', async () => {
    authorizations.length = 0;
    await answer(503, 'text/plain', '');
    expect(authorizations).toEqual([`Bearer ${TOKEN}`]);
  });

  it('says a closed port is unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(
      await uploadChunk(serverTarget({ server: `http://127.0.0.1:${port}`, token: TOKEN }), chunk()),
    ).toEqual({
      kind: 'retry',
      reason: 'ECONNREFUSED',
      unreachable: true,
    });
  });
});

describe('serverTarget', () => {
  it('refuses a missing or broken token, --ca for plain http, and a --ca that is not a certificate', () => {
    expect(() => serverTarget({ server: 'http://127.0.0.1:8080', token: '  ' })).toThrow(
      /The token must be the one "wcs token create --name <device> --role dj" printed/,
    );
    expect(() => serverTarget({ server: 'http://127.0.0.1:8080', token: 'wcs_a b' })).toThrow(/one word/);
    expect(() =>
      serverTarget({ server: 'http://127.0.0.1:8080', token: TOKEN, ca: '-----BEGIN CERTIFICATE-----' }),
    ).toThrow(
      '--ca is for an https:// server; http://127.0.0.1:8080 is plain http: drop --ca, or use https://',
    );
    expect(() =>
      serverTarget({ server: 'https://127.0.0.1:8080', token: TOKEN, ca: 'not a certificate' }),
    ).toThrow(/--ca must be the server's certificate in PEM/);
    expect(serverTarget({ server: 'https://127.0.0.1:8080/api/', token: ` ${TOKEN}\n` })).toEqual({
      url: 'https://127.0.0.1:8080',
      token: TOKEN,
      dispatcher: undefined,
    });
  });
});

describe('uploadChunk to an https server with a self-signed certificate', () => {
  it('says the certificate is not trusted and how to trust it, and with --ca reaches the server', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const seen: Array<string | undefined> = [];
    const tlsServer = https.createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
      seen.push(request.headers.authorization);
      request.resume();
      request.on('end', () => {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end('{"message":"Database unavailable"}');
      });
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    try {
      expect(await uploadChunk(serverTarget({ server: url, token: TOKEN }), chunk())).toEqual({
        kind: 'retry',
        reason:
          'the server\'s certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): give --ca a copy of the server\'s certificate (<data dir>/tls/cert.pem for "wcs serve --public"), or one made for this very address',
        unreachable: true,
      });
      expect(seen).toEqual([]);
      const trusting = serverTarget({ server: url, token: TOKEN, ca: pems.cert });
      expect(await uploadChunk(trusting, chunk())).toEqual({
        kind: 'retry',
        reason: 'server error 503: Database unavailable',
        unreachable: false,
      });
      expect(seen).toEqual([`Bearer ${TOKEN}`]);
      await trusting.dispatcher?.close();
    } finally {
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });
});
