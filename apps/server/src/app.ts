import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyInstance, LogController } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.js';
import { registerRoutes } from './routes/index.js';
import { AppError } from './services/errors.js';

export const API_VERSION = '0.1.0';

/** PostgreSQL error codes that are the client's fault, with the status they answer. */
const PG_CLIENT_ERRORS: Record<string, number> = {
  '23505': 409, // unique_violation
  '23503': 409, // foreign_key_violation
  '23514': 400, // check_violation
  '22P02': 400, // invalid_text_representation
  '22003': 400, // numeric_value_out_of_range
};

function describePgError(error: { code?: string; detail?: string; constraint?: string }): string {
  if (error.code === '23505') return `Already exists${error.detail ? `: ${error.detail}` : ''}`;
  if (error.code === '23503')
    return `Refers to something that does not exist or is still in use${error.detail ? `: ${error.detail}` : ''}`;
  if (error.code === '23514') return `Value not allowed (${error.constraint ?? 'check'})`;
  return 'Invalid value';
}

/** Builds the HTTP app (no listen: tests use inject). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel },
    // One line per request is noise in a DJ's terminal; failures are still logged by the error handler.
    logController: new LogController({
      disableRequestLogging: !['debug', 'trace'].includes(deps.config.logLevel),
    }),
    bodyLimit: 1024 * 1024,
    // Long recording uploads must not be cut by a request timeout.
    requestTimeout: 0,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => {
        const context = error.validationContext ?? 'request';
        const where = issue.instancePath ? `${context}${issue.instancePath.replaceAll('/', '.')}` : context;
        return { field: where, message: issue.message };
      });
      const message = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
      return reply.status(400).send({ message, errors: issues });
    }
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message });
    }
    const pgStatus = typeof error.code === 'string' ? PG_CLIENT_ERRORS[error.code] : undefined;
    if (pgStatus) {
      return reply.status(pgStatus).send({ message: describePgError(error as never) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ message: 'Internal server error: the response did not match its schema' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Internal server error' });
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'WCS DJ Library API',
        version: API_VERSION,
        description: 'Every call the web app and the recording device make. Errors are JSON { message }.',
      },
      servers: [],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(fastifyMultipart, {
    limits: { fileSize: deps.config.maxUploadBytes, files: 1, fields: 4, fieldSize: 64 * 1024 },
  });

  await registerRoutes(app, deps);

  const indexHtml = path.join(deps.config.webDistDir, 'index.html');
  const hasWebApp = existsSync(indexHtml);
  if (hasWebApp) {
    await app.register(fastifyStatic, { root: deps.config.webDistDir, prefix: '/', wildcard: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: `No such API call: ${request.method} ${url}` });
    }
    if (!hasWebApp) {
      return reply
        .status(503)
        .type('text/plain')
        .send(`The web app is not built (${indexHtml} is missing). Run "npm start", which builds it.`);
    }
    // Single-page app: every other path is a client-side route.
    return reply.type('text/html').sendFile('index.html');
  });

  return app;
}
