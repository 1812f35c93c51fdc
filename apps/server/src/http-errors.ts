import type { ErrorResponse } from '@wcs/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type DatabaseError, findDatabaseError } from './db/client.js';
import { AppError } from './services/errors.js';

/**
 * The one error mapping of the API (docs/api.md, "Errors"): every refusal is a 4xx with
 * `{ message, field? }` a person can act on; anything unforeseen is a 500 whose body carries the
 * request id that the log line of the failure also carries.
 */

interface Mapped {
  status: number;
  message: string;
  field?: string;
}

function mapPgError(error: DatabaseError): Mapped | null {
  const field = error.column ? `body.${error.column}` : undefined;
  const detail = error.detail ? `: ${error.detail}` : '';
  const withField = (status: number, message: string): Mapped =>
    field ? { status, message, field } : { status, message };
  switch (error.code) {
    case '23505':
      return withField(409, `Already exists${detail}`);
    case '23503':
      return withField(409, `Refers to something that does not exist or is still in use${detail}`);
    case '23502':
      return withField(400, `A required value is missing${error.column ? ` (${error.column})` : ''}`);
    case '23514':
      return withField(400, `Value not allowed (${error.constraint ?? 'check'})`);
    case '22001':
      return withField(400, 'A text is longer than the database stores');
    case '22003':
      return withField(400, 'A number is outside the range the database stores');
    case '22021':
      return withField(400, 'A text contains a character that cannot be stored (such as U+0000)');
    case '54000':
      return withField(413, 'A value is too large to store');
    case '40001':
    case '40P01':
      return { status: 503, message: 'The database was busy with a conflicting change; try again' };
    default:
      // Class 22 is "data exception": the value sent, not the server, is wrong.
      return error.code.startsWith('22') ? withField(400, 'Invalid value') : null;
  }
}

function mapValidation(error: FastifyError): Mapped & { errors: Array<{ field: string; message: string }> } {
  const context = error.validationContext ?? 'request';
  const errors = (error.validation ?? []).map((issue) => {
    const isWhole = !issue.instancePath || issue.instancePath === '/';
    const where = isWhole ? context : `${context}${issue.instancePath.replaceAll('/', '.')}`;
    // A whole body or query of the wrong shape: zod says only "Invalid input: expected object".
    const message =
      isWhole && (issue.message ?? '').startsWith('Invalid input')
        ? `send a JSON object with this call's fields (see /api/docs); ${issue.message}`
        : (issue.message ?? 'invalid');
    return { field: where, message };
  });
  const message = errors.map((issue) => `${issue.field}: ${issue.message}`).join('; ') || 'Invalid request';
  return { status: 400, message, errors, ...(errors[0] ? { field: errors[0].field } : {}) };
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const send = (status: number, body: ErrorResponse) => reply.status(status).send(body);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const { status, ...body } = mapValidation(error);
    return send(status, body);
  }
  if (error instanceof AppError) {
    return send(
      error.status,
      error.field ? { message: error.message, field: error.field } : { message: error.message },
    );
  }
  const pg = findDatabaseError(error);
  const mapped = pg ? mapPgError(pg) : null;
  if (mapped) {
    if (mapped.status >= 500) request.log.warn({ err: error }, 'request refused: database busy');
    const { status, ...body } = mapped;
    return send(status, body);
  }
  if (
    !isResponseSerializationError(error) &&
    error.statusCode &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    // Fastify's and its plugins' own refusals: bad JSON, a body over the limit, a wrong media type.
    return send(error.statusCode, { message: error.message });
  }
  const cause = isResponseSerializationError(error)
    ? 'the response did not match its schema'
    : 'request failed';
  request.log.error({ err: error, cause: error.cause, requestId: request.id }, cause);
  return send(500, {
    message: `Internal server error; the server log has the details under request id ${request.id}`,
    request_id: request.id,
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where a request's text holds something PostgreSQL cannot store, and what. */
function findUnstorableText(
  value: unknown,
  where: string,
  depth = 0,
): { field: string; problem: string } | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { field: where, problem: 'contains the NUL character (U+0000)' };
    if (LONE_SURROGATE.test(value))
      return { field: where, problem: 'contains an unpaired surrogate (invalid Unicode)' };
    return null;
  }
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = findUnstorableText(inner, `${where}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Text that PostgreSQL refuses (NUL) or would silently change (an unpaired surrogate becomes U+FFFD)
 * is refused before validation, naming the field.
 */
export async function refuseUnstorableText(request: FastifyRequest, reply: FastifyReply) {
  const found =
    findUnstorableText(request.params, 'params') ??
    findUnstorableText(request.query, 'querystring') ??
    findUnstorableText(request.body, 'body');
  if (found) {
    const body: ErrorResponse = {
      message: `${found.field} ${found.problem}, which cannot be stored`,
      field: found.field,
    };
    return reply.status(400).send(body);
  }
}
