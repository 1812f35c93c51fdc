/**
 * Local HTTP stand-ins for ACRCloud and AudD (node:http on 127.0.0.1), answering in each
 * provider's documented format. They check the request the way the real services do (ACRCloud's
 * HMAC-SHA1 signature and form fields, AudD's api_token) and record every request, so tests can
 * assert on both sides. What they answer for a clip is up to the test (`respond`).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Buffer } | null;
}

export interface FakeServer<Answer> {
  url: string;
  requests: FakeRequest[];
  /** What the next requests get; a number answers with that HTTP status and no JSON. */
  respond: (request: FakeRequest) => Answer | number;
  close(): Promise<void>;
}

async function readForm(req: http.IncomingMessage): Promise<Omit<FakeRequest, 'path'>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: Buffer.concat(chunks),
  });
  const form = await request.formData();
  const fields: Record<string, string> = {};
  let file: FakeRequest['file'] = null;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { fields, file };
}

async function startFake<Answer>(
  handle: (request: FakeRequest, fake: FakeServer<Answer>) => Answer | number,
  initial: (request: FakeRequest) => Answer | number,
): Promise<FakeServer<Answer>> {
  const fake = { requests: [] as FakeRequest[], respond: initial } as FakeServer<Answer>;
  const server = http.createServer((req, res) => {
    readForm(req)
      .then((form) => {
        const request = { path: req.url ?? '/', ...form };
        fake.requests.push(request);
        const answer = handle(request, fake);
        if (typeof answer === 'number') {
          res.writeHead(answer, { 'content-type': 'text/plain' }).end('fake failure');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      })
      .catch((error: Error) => res.writeHead(400).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** A local URL where nothing listens (a port just freed), for "could not be reached". */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------------------------------------
// ACRCloud

export interface AcrMusicEntry {
  title: string;
  artists: { name: string }[];
  album?: { name: string };
  release_date?: string;
  external_ids?: { isrc?: string };
  acrid: string;
  score: number;
  genres?: { name: string }[];
}

export type AcrAnswer = {
  status: { msg: string; code: number; version: string };
  metadata?: { music: AcrMusicEntry[]; timestamp_utc: string };
  cost_time?: number;
  result_type?: number;
};

export const acrSuccess = (music: AcrMusicEntry[]): AcrAnswer => ({
  status: { msg: 'Success', code: 0, version: '1.0' },
  metadata: { music, timestamp_utc: '2026-11-20 21:00:00' },
  cost_time: 0.5,
  result_type: 0,
});
export const acrNoResult = (): AcrAnswer => ({
  status: { msg: 'No result', code: 1001, version: '1.0' },
  cost_time: 0.3,
  result_type: 0,
});
export const acrError = (code: number, msg: string): AcrAnswer => ({
  status: { msg, code, version: '1.0' },
});

/** ACRCloud: POST /v1/identify, refusing a wrong key (3001) or signature (3014) as the service does. */
export function startAcrCloudFake(
  credentials: { accessKey: string; accessSecret: string },
  respond: (request: FakeRequest) => AcrAnswer | number = () => acrNoResult(),
): Promise<FakeServer<AcrAnswer>> {
  return startFake<AcrAnswer>((request, fake) => {
    if (request.path !== '/v1/identify') return 404;
    const { access_key, timestamp, signature, data_type, signature_version } = request.fields;
    if (access_key !== credentials.accessKey) return acrError(3001, 'Missing/Invalid Access Key');
    const expected = createHmac('sha1', credentials.accessSecret)
      .update(['POST', '/v1/identify', access_key, data_type, signature_version, timestamp].join('\n'))
      .digest('base64');
    if (signature !== expected) return acrError(3014, 'Invalid signature');
    if (!request.file || Number(request.fields.sample_bytes) !== request.file.bytes.length)
      return acrError(3006, 'Invalid arguments');
    return fake.respond(request);
  }, respond);
}

// ---------------------------------------------------------------------------------------------
// AudD

export type AuddAnswer =
  | { status: 'success'; result: Record<string, unknown> | null }
  | { status: 'error'; error: { error_code: number; error_message: string }; request_params?: object };

export const auddSuccess = (result: Record<string, unknown> | null): AuddAnswer => ({
  status: 'success',
  result,
});
export const auddError = (code: number, message: string): AuddAnswer => ({
  status: 'error',
  error: { error_code: code, error_message: message },
  request_params: {},
});

/** AudD: POST / with api_token and file; a wrong token gets error 900 as from the service. */
export function startAuddFake(
  apiToken: string,
  respond: (request: FakeRequest) => AuddAnswer | number = () => auddSuccess(null),
): Promise<FakeServer<AuddAnswer>> {
  return startFake<AuddAnswer>((request, fake) => {
    if (request.fields.api_token !== apiToken)
      return auddError(900, 'Recognition failed: authorization failed: wrong api_token.');
    if (!request.file) return auddError(700, 'No file was received.');
    return fake.respond(request);
  }, respond);
}
