/**
 * A local S3-compatible server (node:http on 127.0.0.1), answering the S3 REST API at the HTTP
 * level in its documented format (path-style addressing: /bucket/key): PutObject, GetObject,
 * HeadObject, DeleteObject, ListObjectsV2, CreateMultipartUpload, UploadPart,
 * CompleteMultipartUpload, AbortMultipartUpload and DeleteObjects. Like the real service it checks
 * each request's Signature Version 4 (Authorization header, scope, signed headers and the
 * signature itself), the payload's x-amz-content-sha256 and any x-amz-checksum-crc32, refuses
 * parts under 5 MiB except the last, and requires a checksum on DeleteObjects. It records every
 * request, and a test may make requests fail (`fail`). Objects live in memory.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import Module from 'node:module';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * The AWS SDK in the test process. Vitest starts its workers with Node's `--conditions` set to
 * the configuration's server conditions, `module` among them, and the SDK's packages export their
 * bundler build (files imported without extensions, which Node cannot run) under `module` before
 * their Node build under `node`. So inside the test workers only, a resolution that lands in an SDK
 * package's `dist-es` is sent to the same file of its `dist-cjs`, the build Node itself picks. Server
 * processes started by tests, and `wcs` itself, resolve normally. (Dropping `module` from
 * `ssr.resolve.conditions` in vitest.config.ts would make this unnecessary.)
 */
function useNodeBuildOfAwsSdk(): void {
  const loader = Module as unknown as {
    _resolveFilename: (...args: unknown[]) => string;
    wcsAwsSdkShim?: boolean;
  };
  if (loader.wcsAwsSdkShim) return;
  loader.wcsAwsSdkShim = true;
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolveNodeBuild(this: unknown, ...args: unknown[]) {
    const resolved = original.apply(this, args);
    if (/[\\/]node_modules[\\/]@(aws-sdk|smithy|aws-crypto)[\\/].*[\\/]dist-es[\\/]/.test(resolved)) {
      const nodeBuild = resolved.replace(/([\\/])dist-es([\\/])/, '$1dist-cjs$2');
      if (fs.existsSync(nodeBuild)) return nodeBuild;
    }
    return resolved;
  };
}
useNodeBuildOfAwsSdk();

export type S3Operation =
  | 'PutObject'
  | 'GetObject'
  | 'HeadObject'
  | 'DeleteObject'
  | 'ListObjectsV2'
  | 'CreateMultipartUpload'
  | 'UploadPart'
  | 'CompleteMultipartUpload'
  | 'AbortMultipartUpload'
  | 'DeleteObjects'
  | 'Unknown';

export interface FakeS3Request {
  operation: S3Operation;
  method: string;
  bucket: string;
  key: string;
  /** Bytes of the request body, after aws-chunked decoding. */
  bodyBytes: number;
  status: number;
}

export interface FakeS3Object {
  body: Buffer;
  etag: string;
  lastModified: Date;
  crc32: string | null;
}

export interface FakeS3 {
  /** The endpoint, e.g. http://127.0.0.1:41234 (WCS_S3_ENDPOINT). */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  requests: FakeS3Request[];
  /** The objects of the bucket, by key. */
  objects: Map<string, FakeS3Object>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): number;
  /**
   * Answers requests that `match` with `status` (an S3 error body) until the returned function is
   * called. The SDK retries 5xx, so a fault stays until lifted.
   */
  fail(match: (request: { operation: S3Operation; key: string }) => boolean, status?: number): () => void;
  /** Environment for a server process or test app that stores in this fake under `prefix`. */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const md5 = (data: Buffer) => createHash('md5').update(data).digest();

/** RFC 3986 encoding, as SigV4 canonicalises paths and query strings. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!,
  );
const xmlUnescape = (text: string) =>
  text.replace(
    /&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g,
    (_all, name: string, dec?: string, hex?: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name] ?? '';
    },
  );

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const crc32Base64 = (data: Buffer) => {
  const value = Buffer.alloc(4);
  value.writeUInt32BE(zlib.crc32(data));
  return value.toString('base64');
};

/** The body of an `aws-chunked` request: `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n`..., then trailers. */
function decodeAwsChunked(raw: Buffer): { body: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) throw new S3Error(400, 'IncompleteBody', 'aws-chunked body ends inside a chunk header');
    const size = Number.parseInt(raw.subarray(offset, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size)) throw new S3Error(400, 'InvalidRequest', 'bad aws-chunked chunk size');
    offset = lineEnd + 2;
    if (size === 0) break;
    parts.push(raw.subarray(offset, offset + size));
    offset += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of raw.subarray(offset).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(parts), trailers };
}

interface Parsed {
  bucket: string;
  key: string;
  query: URLSearchParams;
  rawPath: string;
  rawQuery: string;
}

function parseTarget(url: string): Parsed {
  const question = url.indexOf('?');
  const rawPath = question < 0 ? url : url.slice(0, question);
  const rawQuery = question < 0 ? '' : url.slice(question + 1);
  const segments = rawPath.split('/').slice(1);
  const bucket = decodeURIComponent(segments[0] ?? '');
  const key = segments.slice(1).map(decodeURIComponent).join('/');
  return { bucket, key, query: new URLSearchParams(rawQuery), rawPath, rawQuery };
}

function operationOf(method: string, parsed: Parsed): S3Operation {
  const { key, query } = parsed;
  if (key === '') {
    if (method === 'GET' && query.get('list-type') === '2') return 'ListObjectsV2';
    if (method === 'POST' && query.has('delete')) return 'DeleteObjects';
    return 'Unknown';
  }
  if (method === 'PUT') return query.has('uploadId') ? 'UploadPart' : 'PutObject';
  if (method === 'GET') return 'GetObject';
  if (method === 'HEAD') return 'HeadObject';
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'DELETE') return query.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
  return 'Unknown';
}

/** Checks the request's Signature Version 4 as S3 does; throws a 403 otherwise. */
function checkSignature(
  req: http.IncomingMessage,
  parsed: Parsed,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
): void {
  const authorization = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match)
    throw new S3Error(403, 'AccessDenied', 'A Signature Version 4 Authorization header is required');
  const [, accessKeyId, date, region, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId)
    throw new S3Error(403, 'InvalidAccessKeyId', 'The access key does not exist');
  if (region !== keys.region)
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `Region ${region} is wrong`);
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date!))
    throw new S3Error(403, 'AccessDenied', 'x-amz-date does not match the scope');
  const signedHeaders = signedHeaderList!.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signedHeaders.includes(required))
      throw new S3Error(403, 'AccessDenied', `${required} must be signed`);
  }
  const canonicalPath = parsed.rawPath
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = parsed.rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
      const value = equals < 0 ? '' : decodeURIComponent(pair.slice(equals + 1).replace(/\+/g, '%20'));
      return [uriEncode(name), uriEncode(value)] as const;
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaderList,
    String(req.headers['x-amz-content-sha256']),
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, date!), region!), 's3'),
    'aws4_request',
  );
  if (createHmac('sha256', signingKey).update(stringToSign).digest('hex') !== signature) {
    throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match');
  }
}

/** The request body, checked against x-amz-content-sha256 and x-amz-checksum-crc32. */
async function readBody(req: http.IncomingMessage): Promise<{ body: Buffer; crc32: string | null }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: Buffer = Buffer.concat(chunks);
  const declared = String(req.headers['x-amz-content-sha256'] ?? '');
  let trailers: Record<string, string> = {};
  if (
    declared.startsWith('STREAMING-') ||
    /aws-chunked/.test(String(req.headers['content-encoding'] ?? ''))
  ) {
    ({ body, trailers } = decodeAwsChunked(body));
  } else if (declared !== 'UNSIGNED-PAYLOAD') {
    if (!/^[0-9a-f]{64}$/.test(declared))
      throw new S3Error(400, 'InvalidArgument', 'x-amz-content-sha256 must be the payload hash');
    if (sha256Hex(body) !== declared)
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', 'The payload hash does not match');
  }
  const crc32 = String(req.headers['x-amz-checksum-crc32'] ?? trailers['x-amz-checksum-crc32'] ?? '') || null;
  if (crc32 && crc32Base64(body) !== crc32)
    throw new S3Error(400, 'BadDigest', 'The CRC32 checksum does not match');
  return { body, crc32 };
}

function sendXml(res: http.ServerResponse, status: number, xml: string) {
  res
    .writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': randomUUID() })
    .end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
}

export interface FakeS3Options {
  bucket?: string;
  region?: string;
  /** ListObjectsV2's page size (S3: 1,000), small to exercise continuation tokens. */
  maxKeys?: number;
}

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'wcs-test';
  const keys = {
    accessKeyId: 'AKIAFAKES3TEST',
    secretAccessKey: randomUUID(),
    region: options.region ?? 'us-east-1',
  };
  const maxKeys = options.maxKeys ?? 1000;
  const objects = new Map<string, FakeS3Object>();
  const uploads = new Map<string, { key: string; parts: Map<number, { body: Buffer; etag: string }> }>();
  const requests: FakeS3Request[] = [];
  const faults = new Set<{ match: Parameters<FakeS3['fail']>[0]; status: number }>();

  const getObject = (key: string) => {
    const object = objects.get(key);
    if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    return object;
  };

  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    parsed: Parsed,
    operation: S3Operation,
  ) {
    checkSignature(req, parsed, keys);
    if (parsed.bucket !== bucket)
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    for (const fault of faults) {
      if (fault.match({ operation, key: parsed.key })) {
        await readBody(req).catch(() => null);
        throw new S3Error(
          fault.status,
          fault.status >= 500 ? 'InternalError' : 'AccessDenied',
          'Injected fault',
        );
      }
    }
    const { key, query } = parsed;
    switch (operation) {
      case 'PutObject': {
        const { body, crc32 } = await readBody(req);
        const etag = `"${md5(body).toString('hex')}"`;
        objects.set(key, { body, etag, lastModified: new Date(), crc32 });
        res.writeHead(200, { etag, ...(crc32 ? { 'x-amz-checksum-crc32': crc32 } : {}) }).end();
        return body.length;
      }
      case 'GetObject':
      case 'HeadObject': {
        const object = getObject(key);
        const headers: Record<string, string> = {
          'content-length': String(object.body.length),
          'content-type': 'application/octet-stream',
          etag: object.etag,
          'last-modified': object.lastModified.toUTCString(),
        };
        if (object.crc32 && req.headers['x-amz-checksum-mode'] === 'ENABLED') {
          headers['x-amz-checksum-crc32'] = object.crc32;
        }
        res.writeHead(200, headers);
        res.end(operation === 'GetObject' ? object.body : undefined);
        return 0;
      }
      case 'DeleteObject':
        objects.delete(key);
        res.writeHead(204).end();
        return 0;
      case 'ListObjectsV2': {
        const prefix = query.get('prefix') ?? '';
        const delimiter = query.get('delimiter') ?? '';
        const asUrl = query.get('encoding-type') === 'url';
        const limit = Math.min(Number(query.get('max-keys') ?? maxKeys), maxKeys);
        const token = query.get('continuation-token');
        const after = token
          ? Buffer.from(token, 'base64').toString('utf8')
          : (query.get('start-after') ?? '');
        const encode = (text: string) => xmlEscape(asUrl ? uriEncode(text).replace(/%2F/g, '/') : text);
        const contents: string[] = [];
        const common = new Set<string>();
        let last = '';
        let truncated = false;
        for (const name of [...objects.keys()].sort()) {
          if (!name.startsWith(prefix) || name <= after) continue;
          if (contents.length + common.size >= limit) {
            truncated = true;
            break;
          }
          last = name;
          const rest = name.slice(prefix.length);
          if (delimiter && rest.includes(delimiter)) {
            common.add(prefix + rest.slice(0, rest.indexOf(delimiter) + delimiter.length));
            continue;
          }
          const object = objects.get(name)!;
          contents.push(
            `<Contents><Key>${encode(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
          );
        }
        sendXml(
          res,
          200,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${encode(prefix)}</Prefix><KeyCount>${contents.length + common.size}</KeyCount><MaxKeys>${limit}</MaxKeys>${asUrl ? '<EncodingType>url</EncodingType>' : ''}<IsTruncated>${truncated}</IsTruncated>${contents.join('')}${[
            ...common,
          ]
            .map((name) => `<CommonPrefixes><Prefix>${encode(name)}</Prefix></CommonPrefixes>`)
            .join(
              '',
            )}${truncated ? `<NextContinuationToken>${Buffer.from(last).toString('base64')}</NextContinuationToken>` : ''}${token ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : ''}</ListBucketResult>`,
        );
        return 0;
      }
      case 'CreateMultipartUpload': {
        await readBody(req);
        const uploadId = randomUUID();
        uploads.set(uploadId, { key, parts: new Map() });
        sendXml(
          res,
          200,
          `<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        );
        return 0;
      }
      case 'UploadPart': {
        const upload = uploads.get(query.get('uploadId') ?? '');
        if (!upload || upload.key !== key)
          throw new S3Error(404, 'NoSuchUpload', 'The upload does not exist');
        const partNumber = Number(query.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
          throw new S3Error(400, 'InvalidArgument', 'partNumber must be 1-10000');
        const { body } = await readBody(req);
        const etag = `"${md5(body).toString('hex')}"`;
        upload.parts.set(partNumber, { body, etag });
        res.writeHead(200, { etag }).end();
        return body.length;
      }
      case 'CompleteMultipartUpload': {
        const uploadId = query.get('uploadId') ?? '';
        const upload = uploads.get(uploadId);
        const { body } = await readBody(req);
        if (!upload || upload.key !== key)
          throw new S3Error(404, 'NoSuchUpload', 'The upload does not exist');
        const listed = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((part) => ({
          number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part[1]!)?.[1]),
          etag: xmlUnescape(/<ETag>([\s\S]*?)<\/ETag>/.exec(part[1]!)?.[1] ?? ''),
        }));
        if (listed.length === 0) throw new S3Error(400, 'MalformedXML', 'No parts listed');
        const chosen: Buffer[] = [];
        listed.forEach((part, index) => {
          const stored = upload.parts.get(part.number);
          if (index > 0 && part.number <= listed[index - 1]!.number)
            throw new S3Error(400, 'InvalidPartOrder', 'Parts must be in ascending order');
          if (!stored || stored.etag !== part.etag)
            throw new S3Error(400, 'InvalidPart', `Part ${part.number} was not uploaded`);
          if (index < listed.length - 1 && stored.body.length < MIN_PART_SIZE)
            throw new S3Error(400, 'EntityTooSmall', `Part ${part.number} is smaller than 5 MiB`);
          chosen.push(stored.body);
        });
        const whole = Buffer.concat(chosen);
        const etag = `"${md5(Buffer.concat(chosen.map((part) => md5(part)))).toString('hex')}-${chosen.length}"`;
        objects.set(key, { body: whole, etag, lastModified: new Date(), crc32: null });
        uploads.delete(uploadId);
        sendXml(
          res,
          200,
          `<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Location>http://${req.headers.host}/${bucket}/${xmlEscape(key)}</Location><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`,
        );
        return body.length;
      }
      case 'AbortMultipartUpload':
        if (!uploads.delete(query.get('uploadId') ?? ''))
          throw new S3Error(404, 'NoSuchUpload', 'The upload does not exist');
        res.writeHead(204).end();
        return 0;
      case 'DeleteObjects': {
        if (
          !req.headers['content-md5'] &&
          !Object.keys(req.headers).some((name) => name.startsWith('x-amz-checksum-'))
        ) {
          throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: Content-MD5');
        }
        const { body } = await readBody(req);
        const text = body.toString('utf8');
        const quiet = /<Quiet>true<\/Quiet>/.test(text);
        const names = [...text.matchAll(/<Object>\s*<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Object>/g)].map((m) =>
          xmlUnescape(m[1]!),
        );
        if (names.length > 1000) throw new S3Error(400, 'MalformedXML', 'At most 1000 keys');
        for (const name of names) objects.delete(name);
        sendXml(
          res,
          200,
          `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${quiet ? '' : names.map((name) => `<Deleted><Key>${xmlEscape(name)}</Key></Deleted>`).join('')}</DeleteResult>`,
        );
        return body.length;
      }
      default:
        await readBody(req).catch(() => null);
        throw new S3Error(501, 'NotImplemented', `${req.method} ${req.url} is not implemented by the fake`);
    }
  }

  const server = http.createServer((req, res) => {
    const parsed = parseTarget(req.url ?? '/');
    const operation = operationOf(req.method ?? 'GET', parsed);
    const record: FakeS3Request = {
      operation,
      method: req.method ?? '',
      bucket: parsed.bucket,
      key: parsed.key,
      bodyBytes: 0,
      status: 200,
    };
    requests.push(record);
    handle(req, res, parsed, operation)
      .then((bytes) => {
        record.bodyBytes = bytes;
        record.status = res.statusCode;
      })
      .catch((error: Error) => {
        const failure = error instanceof S3Error ? error : new S3Error(500, 'InternalError', error.message);
        record.status = failure.status;
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (req.method === 'HEAD') {
          res.writeHead(failure.status).end();
          return;
        }
        sendXml(
          res,
          failure.status,
          `<Error><Code>${failure.code}</Code><Message>${xmlEscape(failure.message)}</Message><Key>${xmlEscape(parsed.key)}</Key><RequestId>${randomUUID()}</RequestId></Error>`,
        );
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ...keys,
    bucket,
    requests,
    objects,
    openUploads: () => uploads.size,
    fail(match, status = 500) {
      const fault = { match, status };
      faults.add(fault);
      return () => faults.delete(fault);
    },
    env: (prefix = 'wcs') => ({
      WCS_STORAGE: `s3://${bucket}/${prefix}`,
      WCS_S3_ENDPOINT: url,
      WCS_S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: keys.region,
      AWS_ACCESS_KEY_ID: keys.accessKeyId,
      AWS_SECRET_ACCESS_KEY: keys.secretAccessKey,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
