/**
 * Request generators for the OpenAPI fuzz test (routes/openapi-fuzz.int.test.ts): the operations of
 * the app's OpenAPI document, fast-check arbitraries of schema-valid values for their parameters
 * and bodies, hostile values and mutations mixed into them, and the serialisation of a generated
 * request into `app.inject` options. Nothing here knows the product's routes: hints passed in by
 * the test steer fields towards values that exist (ids, folders, local URLs).
 */
import fc from 'fast-check';

export type JsonSchema = { [key: string]: unknown };

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface DeclaredResponse {
  /** Undefined when the status is declared without a JSON body (e.g. the M3U8 download). */
  schema: JsonSchema | undefined;
}

export interface Operation {
  /** `GET /api/events/{id}`, as in the document. */
  key: string;
  method: string;
  path: string;
  parameters: OperationParameter[];
  body: { required: boolean; contentType: string; schema: JsonSchema } | undefined;
  multipart: boolean;
  /** By status code as written in the document: `200`, `4XX`, `default`. */
  responses: Map<string, DeclaredResponse>;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every operation of the document; multipart ones are those consuming multipart/form-data. */
export function listOperations(
  document: unknown,
  options: { multipartPaths?: string[]; exclude?: (path: string) => boolean } = {},
): Operation[] {
  const doc = document as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (options.exclude?.(path)) continue;
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = ((raw.parameters as Record<string, unknown>[] | undefined) ?? []).map((p) => ({
        name: String(p.name),
        in: p.in as OperationParameter['in'],
        required: p.required === true,
        schema: deref(doc, (p.schema as JsonSchema | undefined) ?? {}),
      }));
      const requestBody = raw.requestBody as
        | { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
        | undefined;
      const content = requestBody?.content ?? {};
      const consumes = (raw.consumes as string[] | undefined) ?? [];
      const multipart =
        'multipart/form-data' in content ||
        consumes.includes('multipart/form-data') ||
        (options.multipartPaths ?? []).includes(path);
      const jsonType = Object.keys(content).find((type) => type.includes('json'));
      const body =
        !multipart && jsonType
          ? {
              required: requestBody?.required === true,
              contentType: jsonType,
              schema: deref(doc, content[jsonType]?.schema ?? {}),
            }
          : undefined;
      const responses = new Map<string, DeclaredResponse>();
      for (const [status, response] of Object.entries(
        (raw.responses as Record<string, { content?: Record<string, { schema?: JsonSchema }> }>) ?? {},
      )) {
        const json = Object.entries(response.content ?? {}).find(([type]) => type.includes('json'));
        responses.set(status, { schema: json?.[1].schema ? deref(doc, json[1].schema) : undefined });
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        body,
        multipart,
        responses,
      });
    }
  }
  return operations;
}

/** Inlines `#/components/schemas/...` references (the document's components are few or none). */
function deref(doc: OpenApiDocument, schema: JsonSchema, seen = new Set<string>()): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const object = value as JsonSchema;
    if (typeof object.$ref === 'string' && object.$ref.startsWith('#/components/schemas/')) {
      const name = object.$ref.slice('#/components/schemas/'.length);
      const target = doc.components?.schemas?.[name];
      if (!target || seen.has(name)) return {};
      return deref(doc, target, new Set([...seen, name]));
    }
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(schema) as JsonSchema;
}

/**
 * An OpenAPI 3.0 schema as JSON Schema for Ajv: `nullable` becomes a union with null, and the
 * boolean `exclusiveMinimum`/`exclusiveMaximum` of 3.0 become the numeric bounds of draft 7.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue;
    out[key] = ['properties', 'patternProperties', 'definitions', '$defs'].includes(key)
      ? Object.fromEntries(
          Object.entries(value as JsonSchema).map(([name, inner]) => [name, toJsonSchema(inner)]),
        )
      : toJsonSchema(value);
  }
  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof out.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof out.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;
  if ((schema as JsonSchema).nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values resolved at send time

/** Ids of things that exist, by kind (event, song, recording...), grown from the responses. */
export type IdPools = Map<string, number[]>;

/**
 * A value chosen when the request is sent rather than when it is generated: the generated requests
 * stay deterministic for a seed while their ids follow what the run has created or deleted.
 */
export class Deferred {
  constructor(
    readonly label: string,
    readonly resolve: (pools: IdPools) => unknown,
  ) {}
}

export function pickId(pools: IdPools, kind: string, pick: number): number {
  const list = pools.get(kind)?.length ? pools.get(kind)! : (pools.get('any') ?? []);
  return list.length > 0 ? list[pick % list.length]! : (pick % 20) + 1;
}

/** An id of `kind` that exists when the request is sent (when the run knows one). */
export const existingId = (kind: string): fc.Arbitrary<Deferred> =>
  fc.nat().map((pick) => new Deferred(`${kind}`, (pools) => pickId(pools, kind, pick)));

/** Replaces every Deferred; keeps own `__proto__` keys as data (JSON.parse makes such keys too). */
export function resolveDeferred(value: unknown, pools: IdPools): unknown {
  if (value instanceof Deferred) return value.resolve(pools);
  if (Array.isArray(value)) return value.map((item) => resolveDeferred(item, pools));
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: resolveDeferred((value as Record<string, unknown>)[key], pools),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------
// Hostile values

export const ONE_MB = 1_000_000;
const megabyteString = 'x'.repeat(ONE_MB);

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  1e308,
  -1e308,
  0.5,
  -0,
  1e-300,
];

export const HOSTILE_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '.',
  '..',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/etc/passwd',
  'a/b',
  '   ',
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '1e3',
  '0x10',
  ' 1',
  '+1',
  '1.5',
  '-0',
  'true',
  'null',
  '[]',
  '{}',
  '2147483648',
  '9007199254740993',
  '💃🕺',
  '\u202eevil',
  '<script>alert(1)</script>',
  'CON',
];

const wrongTypes: readonly unknown[] = [[], [1, 2], ['a'], {}, { a: 1 }, true, false, null, [null], [[]]];

/** A value that is wrong for most fields: bounds, special numbers as text, NUL, surrogates, paths. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 7, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.constantFrom(...wrongTypes) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constant(megabyteString) },
  );
}

/**
 * Hostile text for a path segment. Pure dot segments are left out: the WHATWG URL parser that
 * app.inject uses (like browsers) folds `.`, `..` and `%2e%2e` into the parent path, so they would
 * address another route; dot segments with more around them (`..%2F..%2Fetc`) do reach the route.
 */
export function hostilePathValue(): fc.Arbitrary<string> {
  return hostileValue()
    .map((value) =>
      typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value),
    )
    .filter((text) => !['', '.', '..', '%2e%2e'].includes(text));
}

// ---------------------------------------------------------------------------------------------
// Schema-valid values

/** Where a value sits: ['path', 'id'], ['query', 'limit'], ['body', 'event_name'], ['metadata', ...]. */
export type FieldPath = readonly string[];
/**
 * Valid-ish values the test knows better than the schema (existing ids, allowed folders...),
 * mixed with the schema's own values; wrapped in `Only`, they replace them (say, URLs that must
 * stay on this machine).
 */
export type Hint = (field: FieldPath, schema: JsonSchema) => fc.Arbitrary<unknown> | Only | undefined;

export class Only {
  constructor(readonly arbitrary: fc.Arbitrary<unknown>) {}
}

const INT32 = 2 ** 31 - 1;

function bounds(schema: JsonSchema, integer: boolean): { lo: number; hi: number } {
  const step = integer ? 1 : 0;
  let lo = typeof schema.minimum === 'number' ? schema.minimum : -1e6;
  let hi = typeof schema.maximum === 'number' ? schema.maximum : 1e6;
  if (schema.exclusiveMinimum === true) lo += step;
  if (typeof schema.exclusiveMinimum === 'number') lo = schema.exclusiveMinimum + step;
  if (schema.exclusiveMaximum === true) hi -= step;
  if (typeof schema.exclusiveMaximum === 'number') hi = schema.exclusiveMaximum - step;
  if (integer) {
    lo = Math.max(Math.ceil(lo), Number.MIN_SAFE_INTEGER);
    hi = Math.min(Math.floor(hi), Number.MAX_SAFE_INTEGER);
  }
  return { lo, hi };
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const { lo, hi } = bounds(schema, true);
  if (lo > hi) return fc.constant(lo);
  return fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 20) }) },
    { weight: 3, arbitrary: fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number) },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi, Math.min(hi, Math.max(lo, INT32))) },
  );
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const { lo, hi } = bounds(schema, false);
  const excluded = {
    minExcluded: schema.exclusiveMinimum === true || typeof schema.exclusiveMinimum === 'number',
    maxExcluded: schema.exclusiveMaximum === true || typeof schema.exclusiveMaximum === 'number',
  };
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true, ...excluded }),
    },
    { weight: 2, arbitrary: integerArbitrary({ minimum: Math.ceil(lo), maximum: Math.floor(hi) }) },
  );
}

const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 60, minLength + 60);
  switch (schema.format) {
    case 'date':
      return isoDate.map((text) => text.slice(0, 10));
    case 'date-time':
      return isoDate;
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
  }
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((text) => text.length >= minLength && text.length <= maxLength);
  }
  // Astral characters count twice in a length limit (UTF-16), so the Unicode kind stays at half.
  const unicodeMax = Math.floor(maxLength / 2);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    ...(unicodeMax >= minLength
      ? [{ weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: unicodeMax }) }]
      : []),
  );
}

/** Values valid for `schema` (and for the hints), as the contract's JSON schemas describe them. */
export function schemaArbitrary(schema: JsonSchema, field: FieldPath, hint: Hint): fc.Arbitrary<unknown> {
  const hinted = hint(field, schema);
  if (hinted instanceof Only) return hinted.arbitrary;
  if (hinted)
    return fc.oneof({ weight: 6, arbitrary: hinted }, { weight: 1, arbitrary: plain(schema, field, hint) });
  return plain(schema, field, hint);
}

function plain(schema: JsonSchema, field: FieldPath, hint: Hint): fc.Arbitrary<unknown> {
  if (schema.nullable === true) {
    const { nullable: _, ...rest } = schema;
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 5, arbitrary: schemaArbitrary(rest, field, hint) },
    );
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    return fc.oneof(...union.map((member) => schemaArbitrary(member, field, hint)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schemaArbitrary(Object.assign({}, ...(schema.allOf as JsonSchema[])), field, hint);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 5, minLength + 5);
      return fc.array(schemaArbitrary(items, [...field, '[]'], hint), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, field, hint);
    default:
      return schema.properties ? objectArbitrary(schema, field, hint) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, field: FieldPath, hint: Hint): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name in properties);
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, inner]) => [name, schemaArbitrary(inner, [...field, name], hint)]),
  );
  return fc.record(model, { requiredKeys: required });
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface AudioSample {
  label: string;
  bytes: Buffer;
  contentType: string;
  filename: string;
}

export interface MultipartPart {
  name: string;
  /** Strings and Buffers are sent as they are; anything else as JSON once resolved. */
  value: unknown;
  filename?: string;
  contentType?: string;
  label?: string;
}

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType?: string }
  | { kind: 'raw'; contentType: string | undefined; payload: string | Buffer; label: string }
  | { kind: 'multipart'; parts: MultipartPart[]; damage?: 'no-boundary' | 'truncated' | 'wrong-boundary' };

export interface RequestSpec {
  /** What was done to a valid request; empty for a valid one. */
  mutations: string[];
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: BodySpec;
}

export interface RequestGenOptions {
  hint: Hint;
  /** Upload only: the metadata JSON's schema and the audio files to send. */
  metadataSchema?: JsonSchema;
  audio?: readonly AudioSample[];
  /** Upload only: hostile session ids beyond the generic hostile values. */
  hostileSessionIds?: readonly string[];
}

type Mutation = { label: string; apply: (spec: RequestSpec) => RequestSpec };

const clone = (spec: RequestSpec): RequestSpec => ({
  mutations: [...spec.mutations],
  path: { ...spec.path },
  query: copyOwn(spec.query),
  body:
    spec.body.kind === 'multipart'
      ? { ...spec.body, parts: spec.body.parts.map((part) => ({ ...part })) }
      : spec.body,
});

function copyOwn(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) setOwn(out, key, object[key]);
  return out;
}

const extraFieldSets: readonly (() => Record<string, unknown>)[] = [
  () => ({ unknown_field: 'x' }),
  () => ({ id: 1, created_at: '2020-01-01T00:00:00Z', is_admin: true }),
  () => JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>,
  () => JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as Record<string, unknown>,
  () => Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, i])),
];

const extraQuerySets: readonly Record<string, unknown>[] = [
  { unknown: 'x' },
  { constructor: 'x' },
  { 'a[b]': '1' },
  { '': 'empty-name' },
  { q: ['a', 'b'] },
];

const MALFORMED_JSON: readonly string[] = [
  '{',
  '{"a":',
  '[1,]',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1}{"b":2}',
  '\u0000',
  '"\\ud800"',
  'null',
  '',
  ' ',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
];

const WRONG_CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'application/json, text/plain',
  ';',
];

/** Bodies that are not the JSON the operation reads: malformed, another type, too large. */
function rawBodyArbitrary(): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...MALFORMED_JSON).map(
        (payload): BodySpec => ({
          kind: 'raw',
          contentType: 'application/json',
          payload,
          label: 'malformed JSON',
        }),
      ),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...WRONG_CONTENT_TYPES),
          fc.constantFrom('{"a":1}', 'a=1&b=2', '<x/>', 'plain text'),
        )
        .map(
          ([contentType, payload]): BodySpec => ({
            kind: 'raw',
            contentType,
            payload,
            label: 'wrong content type',
          }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(0.9, 1.1).map(
        (share): BodySpec => ({
          kind: 'raw',
          contentType: 'application/json',
          payload: JSON.stringify({ padding: 'x'.repeat(Math.round(share * 1024 * 1024)) }),
          label: `${share} MiB JSON`,
        }),
      ),
    },
  );
}

const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const OGG_MAGIC = Buffer.from('OggS');

function audioArbitrary(samples: readonly AudioSample[]): fc.Arbitrary<AudioSample> {
  const random = (magic: Buffer, label: string, contentType: string) =>
    fc.uint8Array({ minLength: 1, maxLength: 4000 }).map(
      (bytes): AudioSample => ({
        label: `${label}+${bytes.length} random bytes`,
        bytes: Buffer.concat([magic, Buffer.from(bytes)]),
        contentType,
        filename: 'chunk.webm',
      }),
    );
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...samples) },
    { weight: 3, arbitrary: random(WEBM_MAGIC, 'WebM magic', 'audio/webm') },
    { weight: 1, arbitrary: random(OGG_MAGIC, 'Ogg magic', 'audio/ogg') },
    {
      weight: 2,
      arbitrary: fc.constantFrom<AudioSample>(
        { label: 'empty', bytes: Buffer.alloc(0), contentType: 'audio/webm', filename: 'chunk.webm' },
        {
          label: 'text',
          bytes: Buffer.from('not audio at all\n'),
          contentType: 'text/plain',
          filename: 'a.txt',
        },
        {
          label: 'text as audio',
          bytes: Buffer.from('hello'),
          contentType: 'audio/webm',
          filename: 'a.webm',
        },
        {
          label: '1.1 MB WebM magic + zeros',
          bytes: Buffer.concat([WEBM_MAGIC, Buffer.alloc(1_100_000)]),
          contentType: 'audio/webm',
          filename: 'big.webm',
        },
      ),
    },
  );
}

const HOSTILE_FILENAMES = [
  '../../etc/passwd',
  'a\u0000b.webm',
  '',
  '.',
  '..',
  'a"b.webm',
  'x'.repeat(300),
  '\ud800.webm',
];
const HOSTILE_CONTENT_TYPES = [
  '',
  'application/octet-stream',
  'text/html',
  'audio/webm; codecs=opus',
  'audio/ogg',
  'audio/*',
];

/** The upload's valid body: a metadata JSON field first, then the audio file. */
function multipartArbitrary(options: RequestGenOptions): fc.Arbitrary<BodySpec> {
  const metadata = schemaArbitrary(options.metadataSchema ?? { type: 'object' }, ['metadata'], options.hint);
  return fc.tuple(metadata, audioArbitrary(options.audio ?? [])).map(
    ([value, audio]): BodySpec => ({
      kind: 'multipart',
      parts: [
        { name: 'metadata', value },
        {
          name: 'audio_file',
          value: audio.bytes,
          filename: audio.filename,
          contentType: audio.contentType,
          label: audio.label,
        },
      ],
    }),
  );
}

function mutationsFor(op: Operation, options: RequestGenOptions): fc.Arbitrary<Mutation>[] {
  const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const requiredQuery = queryParams.filter((p) => p.required).map((p) => p.name);
  const list: fc.Arbitrary<Mutation>[] = [];
  if (pathParams.length > 0) {
    list.push(
      fc.tuple(fc.constantFrom(...pathParams), hostilePathValue()).map(([name, value]) => ({
        label: `path ${name}=${excerpt(value)}`,
        apply: (spec) => ({ ...spec, path: { ...spec.path, [name]: value } }),
      })),
    );
  }
  if (queryParams.length > 0) {
    list.push(
      fc
        .tuple(
          fc.constantFrom(...queryParams.map((p) => p.name)),
          fc.oneof(hostileValue(), fc.array(hostileValue(), { minLength: 2, maxLength: 3 })),
        )
        .map(([name, value]) => ({
          label: `query ${name}=${excerpt(value)}`,
          apply: (spec) => {
            const query = copyOwn(spec.query);
            setOwn(query, name, value);
            return { ...spec, query };
          },
        })),
    );
  }
  if (requiredQuery.length > 0) {
    list.push(
      fc.constantFrom(...requiredQuery).map((name) => ({
        label: `query ${name} missing`,
        apply: (spec) => {
          const query = copyOwn(spec.query);
          delete query[name];
          return { ...spec, query };
        },
      })),
    );
  }
  list.push(
    fc.constantFrom(...extraQuerySets).map((extra) => ({
      label: `extra query ${excerpt(extra)}`,
      apply: (spec) => {
        const query = copyOwn(spec.query);
        for (const [key, value] of Object.entries(extra)) setOwn(query, key, value);
        return { ...spec, query };
      },
    })),
  );
  if (op.body)
    list.push(
      ...objectMutations(
        op.body.schema,
        'body',
        (spec) => (spec.body.kind === 'json' ? spec.body.value : undefined),
        (spec, value) => ({ ...spec, body: { kind: 'json', value } }),
      ),
    );
  if (op.body || op.multipart) {
    list.push(
      rawBodyArbitrary().map((body) => ({
        label: `body: ${body.kind === 'raw' ? `${body.label} (${body.contentType ?? 'no content type'}) ${excerpt(body.payload)}` : ''}`,
        apply: (spec) => ({ ...spec, body }),
      })),
    );
  } else {
    list.push(
      fc
        .oneof(
          rawBodyArbitrary(),
          fc.jsonValue({ maxDepth: 2 }).map((value): BodySpec => ({ kind: 'json', value })),
        )
        .map((body) => ({
          label: `unexpected body ${body.kind === 'raw' ? `${body.label} (${body.contentType ?? 'no content type'})` : ''} ${excerpt(body.kind === 'raw' ? body.payload : body.kind === 'json' ? body.value : '')}`,
          apply: (spec) => ({ ...spec, body }),
        })),
    );
  }
  if (op.multipart) list.push(...multipartMutations(options));
  return list;
}

/** Field-level damage to a JSON object: one field hostile, a required one missing, extra fields, another type. */
function objectMutations(
  schema: JsonSchema,
  where: string,
  get: (spec: RequestSpec) => unknown,
  set: (spec: RequestSpec, value: unknown) => RequestSpec,
): fc.Arbitrary<Mutation>[] {
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) =>
    properties.includes(name),
  );
  const asObject = (spec: RequestSpec) => {
    const value = get(spec);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? copyOwn(value as Record<string, unknown>)
      : {};
  };
  const list: fc.Arbitrary<Mutation>[] = [];
  if (properties.length > 0) {
    list.push(
      fc.tuple(fc.constantFrom(...properties), hostileValue()).map(([name, value]) => ({
        label: `${where}.${name}=${excerpt(value)}`,
        apply: (spec) => {
          const object = asObject(spec);
          setOwn(object, name, value);
          return set(spec, object);
        },
      })),
    );
  }
  if (required.length > 0) {
    list.push(
      fc.constantFrom(...required).map((name) => ({
        label: `${where}.${name} missing`,
        apply: (spec) => {
          const object = asObject(spec);
          delete object[name];
          return set(spec, object);
        },
      })),
    );
  }
  list.push(
    fc.constantFrom(...extraFieldSets).map((make) => {
      const extra = make();
      return {
        label: `${where} extra fields ${excerpt(extra)}`,
        apply: (spec: RequestSpec) => {
          const object = asObject(spec);
          for (const key of Object.keys(extra)) setOwn(object, key, extra[key]);
          return set(spec, object);
        },
      };
    }),
    fc.constantFrom(...wrongTypes, 'text', 42, [{}]).map((value) => ({
      label: `${where} is ${excerpt(value)}`,
      apply: (spec) => set(spec, value),
    })),
  );
  return list;
}

function multipartMutations(options: RequestGenOptions): fc.Arbitrary<Mutation>[] {
  const parts = (spec: RequestSpec) => (spec.body.kind === 'multipart' ? spec.body.parts : []);
  const withParts = (
    spec: RequestSpec,
    next: MultipartPart[],
    damage?: 'no-boundary' | 'truncated' | 'wrong-boundary',
  ): RequestSpec => ({
    ...spec,
    body: { kind: 'multipart', parts: next, ...(damage ? { damage } : {}) },
  });
  const metadataOf = (spec: RequestSpec) => parts(spec).find((part) => part.name === 'metadata')?.value;
  const setMetadata = (spec: RequestSpec, value: unknown) =>
    withParts(
      spec,
      parts(spec).map((part) => (part.name === 'metadata' ? { ...part, value: value ?? null } : part)),
    );
  const list = objectMutations(options.metadataSchema ?? {}, 'metadata', metadataOf, (spec, value) =>
    // A string would be sent as the field's raw text: a metadata JSON string goes through JSON.
    setMetadata(spec, typeof value === 'string' ? JSON.stringify(value) : value),
  );
  list.push(
    fc.constantFrom(...(options.hostileSessionIds ?? ['.', '..'])).map((sessionId) => ({
      label: `metadata.session_id=${excerpt(sessionId)}`,
      apply: (spec) => {
        const metadata = metadataOf(spec);
        return setMetadata(spec, {
          ...(typeof metadata === 'object' ? metadata : {}),
          session_id: sessionId,
        });
      },
    })),
    fc.constantFrom<Mutation>(
      {
        label: 'no metadata part',
        apply: (spec) =>
          withParts(
            spec,
            parts(spec).filter((part) => part.name !== 'metadata'),
          ),
      },
      {
        label: 'no audio_file part',
        apply: (spec) =>
          withParts(
            spec,
            parts(spec).filter((part) => part.name !== 'audio_file'),
          ),
      },
      { label: 'file before metadata', apply: (spec) => withParts(spec, [...parts(spec)].reverse()) },
      {
        label: 'two audio_file parts',
        apply: (spec) =>
          withParts(spec, [...parts(spec), ...parts(spec).filter((part) => part.name === 'audio_file')]),
      },
      {
        label: 'metadata is not JSON',
        apply: (spec) => setMetadata(spec, '{"session_id": "x", chunk_number: 0'),
      },
      {
        label: 'metadata over 64 KB',
        apply: (spec) => {
          const metadata = metadataOf(spec);
          return setMetadata(spec, {
            ...(typeof metadata === 'object' ? metadata : {}),
            filename: 'f'.repeat(70_000),
          });
        },
      },
      {
        label: 'metadata sent as a file',
        apply: (spec) =>
          withParts(
            spec,
            parts(spec).map((part) =>
              part.name === 'metadata'
                ? { ...part, filename: 'metadata.json', contentType: 'application/json' }
                : part,
            ),
          ),
      },
      {
        label: 'audio_file sent as a text field',
        apply: (spec) =>
          withParts(
            spec,
            parts(spec).map((part) =>
              part.name === 'audio_file' ? { name: 'audio_file', value: 'not a file' } : part,
            ),
          ),
      },
      {
        label: 'five extra fields',
        apply: (spec) =>
          withParts(spec, [
            ...parts(spec),
            ...Array.from({ length: 5 }, (_, i) => ({ name: `extra${i}`, value: 'x' })),
          ]),
      },
      { label: 'no boundary in content type', apply: (spec) => withParts(spec, parts(spec), 'no-boundary') },
      {
        label: 'body cut before the closing boundary',
        apply: (spec) => withParts(spec, parts(spec), 'truncated'),
      },
      {
        label: 'content type names another boundary',
        apply: (spec) => withParts(spec, parts(spec), 'wrong-boundary'),
      },
    ),
    fc
      .tuple(fc.constantFrom(...HOSTILE_FILENAMES), fc.constantFrom(...HOSTILE_CONTENT_TYPES))
      .map(([filename, contentType]) => ({
        label: `audio_file filename=${excerpt(filename)} type=${excerpt(contentType)}`,
        apply: (spec) =>
          withParts(
            spec,
            parts(spec).map((part) =>
              part.name === 'audio_file' ? { ...part, filename, contentType } : part,
            ),
          ),
      })),
  );
  return list;
}

/** Valid requests and mutated ones (one or two mutations each), about 35:65. */
export function requestArbitrary(op: Operation, options: RequestGenOptions): fc.Arbitrary<RequestSpec> {
  const field = (p: OperationParameter) => schemaArbitrary(p.schema, [p.in, p.name], options.hint);
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, field(p)])));
  const query = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, field(p)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const body: fc.Arbitrary<BodySpec> = op.multipart
    ? multipartArbitrary(options)
    : op.body
      ? schemaArbitrary(op.body.schema, ['body'], options.hint).map(
          (value): BodySpec => ({ kind: 'json', value }),
        )
      : fc.constant<BodySpec>({ kind: 'none' });
  const valid = fc
    .record({ path, query, body })
    .map(
      (parts): RequestSpec => ({ mutations: [], ...parts, query: parts.query as Record<string, unknown> }),
    );
  const mutation = fc.oneof(...mutationsFor(op, options));
  const mutated = fc
    .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 2 }))
    .map(([spec, mutations]) =>
      mutations.reduce((current, m) => {
        const next = m.apply(clone(current));
        return { ...next, mutations: [...current.mutations, m.label] };
      }, spec),
    );
  return fc.oneof({ weight: 7, arbitrary: valid }, { weight: 13, arbitrary: mutated });
}

// ---------------------------------------------------------------------------------------------
// Sending

/** encodeURIComponent, except that lone surrogates go out as their WTF-8 bytes (invalid UTF-8). */
export function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      } else out += encodeURIComponent(char);
    }
    return out;
  }
}

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);

export interface InjectRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** One line for reports. */
  describe: string;
}

/** The request as app.inject sends it, with every Deferred resolved against `pools`. */
export function materialize(op: Operation, spec: RequestSpec, pools: IdPools): InjectRequest {
  const resolved = resolveDeferred({ path: spec.path, query: spec.query }, pools) as {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
  };
  let url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeComponent(asText(resolved.path[name])),
  );
  const pairs: string[] = [];
  for (const key of Object.keys(resolved.query)) {
    const value = resolved.query[key];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      pairs.push(
        item === null ? encodeComponent(key) : `${encodeComponent(key)}=${encodeComponent(asText(item))}`,
      );
    }
  }
  if (pairs.length > 0) url += `?${pairs.join('&')}`;
  const headers: Record<string, string> = {};
  let payload: string | Buffer | undefined;
  let bodyText = '';
  const body = spec.body;
  if (body.kind === 'json') {
    payload = JSON.stringify(resolveDeferred(body.value, pools)) ?? 'null';
    headers['content-type'] = body.contentType ?? 'application/json';
    bodyText = payload;
  } else if (body.kind === 'raw') {
    payload = body.payload;
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
    bodyText = `${body.label}: ${typeof payload === 'string' ? payload : `<${payload.length} bytes>`}`;
  } else if (body.kind === 'multipart') {
    const built = buildMultipart(body.parts, pools);
    const { contentType } = built;
    payload = built.body;
    if (body.damage === 'truncated') payload = payload.subarray(0, Math.max(0, payload.length - 40));
    headers['content-type'] =
      body.damage === 'no-boundary'
        ? 'multipart/form-data'
        : body.damage === 'wrong-boundary'
          ? 'multipart/form-data; boundary=not-the-one-used'
          : contentType;
    bodyText = `multipart${body.damage ? ` (${body.damage})` : ''} [${built.describe}]`;
  }
  const describe = `${op.method} ${excerpt(url, 300)}${bodyText ? ` body=${excerpt(bodyText, 400)}` : ''}${
    spec.mutations.length > 0 ? ` {${spec.mutations.join('; ')}}` : ' {valid}'
  }`;
  return { method: op.method, url, headers, ...(payload !== undefined ? { payload } : {}), describe };
}

function buildMultipart(
  parts: MultipartPart[],
  pools: IdPools,
): { body: Buffer; contentType: string; describe: string } {
  const boundary = '----wcs-fuzz-boundary-7d1f';
  const chunks: Buffer[] = [];
  const described: string[] = [];
  for (const part of parts) {
    const value =
      typeof part.value === 'string' || Buffer.isBuffer(part.value)
        ? part.value
        : (JSON.stringify(resolveDeferred(part.value, pools)) ?? 'null');
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.contentType) headers.push(`Content-Type: ${part.contentType}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`));
    chunks.push(typeof value === 'string' ? Buffer.from(value) : value);
    chunks.push(Buffer.from('\r\n'));
    described.push(
      Buffer.isBuffer(value)
        ? `${part.name}=${part.label ?? 'file'} (${value.length} B, ${part.contentType ?? 'no type'}, ${JSON.stringify(part.filename ?? null)})`
        : `${part.name}=${excerpt(value, 250)}`,
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
    describe: described.join('; '),
  };
}

/** Short printable form of any value (long strings cut, control characters escaped). */
export function excerpt(value: unknown, max = 80): string {
  const text =
    typeof value === 'string'
      ? value
      : Buffer.isBuffer(value)
        ? `<${value.length} bytes>`
        : (() => {
            try {
              return JSON.stringify(value) ?? String(value);
            } catch {
              return String(value);
            }
          })();
  const escaped = JSON.stringify(text.length > max ? text.slice(0, max) : text).slice(1, -1);
  return text.length > max ? `${escaped}…(${text.length} chars)` : escaped;
}
