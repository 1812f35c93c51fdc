import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyUnderPressure from '@fastify/under-pressure';
import fastifyWebsocket from '@fastify/websocket';
import type { ErrorResponse } from '@wcs/contract';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.js';
import { handleError, refuseUnstorableText } from './http-errors.js';
import { registerAccessControl } from './routes/access.js';
import { registerRoutes } from './routes/index.js';
import { registerStaticFiles } from './static-files.js';
import { API_VERSION } from './version.js';

export interface BuildAppOptions {
  /** Listen with TLS (tls.ts: the given certificate, or the self-signed one of `--public`). */
  https?: { key: string | Buffer; cert: string | Buffer } | undefined;
}

/** Builds the HTTP app (no listen: tests use inject). */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // One line per request is noise in a DJ's terminal; failures are still logged by the error handler.
    logController: new LogController({
      disableRequestLogging: !['debug', 'trace'].includes(config.logLevel),
    }),
    // Unique across restarts, so the id a user quotes from a 500 finds its one log line.
    genReqId: () => randomUUID(),
    // Behind a reverse proxy, the client's address and scheme come from X-Forwarded-* (config.ts).
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A whole request, upload body included, must arrive within this; a silent connection is cut
    // sooner (connectionTimeout is the socket's idle timeout). Node checks the first every
    // connectionsCheckingInterval, so that interval follows the timeout down.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.idleTimeoutMs,
    // The router's own refusals (a path parameter over 100 characters, bad percent-encoding) never
    // reach the error handler; they get the API's error shape here.
    frameworkErrors: (error, _request, reply) => {
      const body: ErrorResponse = { message: `The address is not valid: ${error.message}` };
      (reply as FastifyReply).status(400).send(body);
    },
    http: {
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.round(config.requestTimeoutMs / 4))),
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
    },
  });
  app.server.maxConnections = config.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.addHook('preValidation', refuseUnstorableText);

  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    // The recognition index lives in the heap and may be large; refuse only near V8's own limit.
    maxHeapUsedBytes: Math.round(v8.getHeapStatistics().heap_size_limit * 0.9),
    retryAfter: 10,
    pressureHandler: (_request, reply, type) => {
      reply
        .status(503)
        .header('retry-after', '10')
        .send({
          message: `The server is overloaded (${type === 'heapUsedBytes' ? 'memory' : 'busy event loop'}); try again in 10 seconds`,
        });
    },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    max: config.expensiveCallsPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many calls of this kind (${context.max} a minute); try again in ${context.after}`,
    }),
  });
  // Security headers (docs/security.md): a CSP the built app passes (its scripts and styles are
  // files of its own; charts set inline style attributes), no framing, no referrer to other sites.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        // Over plain HTTP on a LAN address, an upgrade would break every asset.
        upgradeInsecureRequests: null,
      },
    },
    // Off on plain HTTP for the same reason; a TLS server (given certificate or --public) sends it.
    strictTransportSecurity: Boolean(config.tlsCertFile) || config.publicMode,
    referrerPolicy: { policy: 'same-origin' },
  });
  // Host allow-list, session cookie, who is calling and whether they may (docs/security.md).
  await registerAccessControl(app, deps);
  // Compression, the built web app and the SPA fallback; before the routes, which it compresses.
  await registerStaticFiles(app, config);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'WCS DJ Library API',
        version: API_VERSION,
        description:
          'Every call the web app and the recording device make. Errors are JSON { message, field? }; a 500 also carries request_id, which the server log carries beside the details.',
      },
      servers: [],
    },
    transform: (input) => {
      // A multipart body is read as a stream (no validation schema); its route documents it here.
      const { documentedBody, ...schema } = (input.schema ?? {}) as { documentedBody?: unknown };
      const result = jsonSchemaTransform({ ...input, schema });
      return documentedBody ? { ...result, schema: { ...result.schema, body: documentedBody } } : result;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(fastifyMultipart, {
    limits: { fileSize: deps.config.maxUploadBytes, files: 1, fields: 4, fieldSize: 64 * 1024 },
  });

  await registerRoutes(app, deps);

  return app;
}
