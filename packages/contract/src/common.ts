import { z } from 'zod';

/**
 * Every error response: a sentence a person can act on, the request field it is about when there
 * is one (`body.name`, `querystring.limit`, `params.id`), and on a 500 the request id that the server's
 * log carries beside the details.
 */
export const ErrorResponse = z.object({
  message: z.string(),
  field: z.string().optional(),
  /** Every problem of a request that failed validation, when there are several. */
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  request_id: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** ISO 8601 timestamp with offset, as the server sends it. */
export const Timestamp = z.string().meta({ format: 'date-time' });
/** Calendar date, YYYY-MM-DD. */
export const DateOnly = z.iso.date();

/** The largest id the database stores (PostgreSQL integer and serial columns). */
export const MAX_DB_ID = 2_147_483_647;

/** A database id in a JSON body. */
export const DbId = z.number().int().min(1).max(MAX_DB_ID, `must be an id from 1 to ${MAX_DB_ID}`);
/** A database id in a path or query string. */
export const Id = z.coerce.number().int().min(1).max(MAX_DB_ID, `must be an id from 1 to ${MAX_DB_ID}`);
export const IdParams = z.object({ id: Id });

/** Query booleans arrive as text: true/false, 1/0, yes/no. */
export const QueryBool = z.stringbool();

export const Pagination = z.object({
  skip: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** A message-only acknowledgement. */
export const MessageResponse = z.object({ message: z.string() });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int() });
}
