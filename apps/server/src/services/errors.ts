/**
 * Errors a service throws for a person to act on; the HTTP layer turns each into its status and a
 * JSON `{ message }`. Services never import Fastify, so this is how they speak HTTP.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The request field the message is about (`body.name`, `metadata.event_id`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const notFound = (what: string, id: number | string) =>
  new AppError(404, `${what} ${id} was not found`);
export const conflict = (message: string) => new AppError(409, message);
export const tooLarge = (message: string) => new AppError(413, message);
export const unsupportedMedia = (message: string) => new AppError(415, message);
export const unavailable = (message: string) => new AppError(503, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
