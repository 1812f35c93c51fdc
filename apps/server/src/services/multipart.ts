import type { Readable } from 'node:stream';
import { AppError, badRequest } from './errors.js';

/**
 * What the two multipart uploads (a recording's chunk, a DJ program's file) share: the shape of
 * a part as @fastify/multipart yields it, and how its failures become answers.
 */

/** One part of a multipart upload, as @fastify/multipart yields it. */
export type UploadPart =
  | { type: 'file'; fieldname: string; file: Readable; mimetype: string; filename: string }
  | { type: 'field'; fieldname: string; value: unknown };

/**
 * The multipart parser's own complaints (a missing boundary, a body that ends mid-part): plain
 * Errors without a status or an errno code, unlike a full disk (ENOSPC), which stays a 500.
 */
function isMalformedMultipart(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof AppError) return false;
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  return (
    code === undefined &&
    statusCode === undefined &&
    /multipart|boundary|part|form|end of/i.test(error.message)
  );
}

/**
 * The answer to an error met while reading the parts: `tooLarge` when @fastify/multipart cut the
 * stream at the configured limit (its own message names no size), a 400 for a malformed body
 * (`outcome` says what became of it: 'nothing was stored'), else the error itself.
 */
export function multipartFailure(error: unknown, tooLarge: () => AppError, outcome: string): unknown {
  if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (isMalformedMultipart(error)) {
    return badRequest(`The multipart body is malformed (${(error as Error).message}); ${outcome}`);
  }
  return error;
}
