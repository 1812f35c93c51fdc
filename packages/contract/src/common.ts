import { z } from 'zod';

/** Every error response: a sentence a person can act on. */
export const ErrorResponse = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** ISO 8601 timestamp with offset, as the server sends it. */
export const Timestamp = z.string().meta({ format: 'date-time' });
/** Calendar date, YYYY-MM-DD. */
export const DateOnly = z.iso.date();

export const Id = z.coerce.number().int().positive();
export const IdParams = z.object({ id: Id });

/** Query booleans arrive as text: true/false, 1/0, yes/no. */
export const QueryBool = z.stringbool();

export const Pagination = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** A message-only acknowledgement. */
export const MessageResponse = z.object({ message: z.string() });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int() });
}
