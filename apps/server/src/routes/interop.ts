import { api, type Endpoint, type InteropPathRequest, roleAllows } from '@wcs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { badRequest, forbidden } from '../services/errors.js';
import { streamSongs } from '../services/interop/export.js';
import { type InteropInput, runInterop } from '../services/interop/interop.js';
import { receiveInteropUpload } from '../services/interop/upload.js';
import type { UploadPart } from '../services/multipart.js';
import { DOWNLOAD_COMPRESSION } from '../static-files.js';
import { accessDescription, errorStatuses, rateLimited, responseSchemas } from './define.js';

/** `attachment` with the file name, plain ASCII for old clients and RFC 5987 UTF-8 for the rest. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const UPLOAD_NOTE =
  ' Send either JSON { path, ...options } naming a file or folder inside the library roots (admins only), ' +
  'or multipart/form-data with the file as the part "file" and the options as the JSON text field "options".';

export async function interopRoutes(app: FastifyInstance, deps: AppDeps) {
  const tag = 'interop';

  /** The file to read and the options, from a multipart upload or a JSON body naming a server path. */
  const inputOf = async (request: FastifyRequest) => {
    if (request.isMultipart()) {
      const upload = await receiveInteropUpload(
        request.parts() as AsyncIterable<UploadPart>,
        deps.config.maxUploadBytes,
      );
      const input: InteropInput = { kind: 'upload', bytes: upload.bytes, fileName: upload.fileName };
      return { input, options: upload.options };
    }
    const body = request.body as InteropPathRequest | null | undefined;
    if (!body) {
      throw badRequest(
        'Send the file as multipart/form-data (part "file", JSON field "options"), or JSON { "path": ... } naming a file on the server',
      );
    }
    const identity = request.identity;
    if (!identity || !roleAllows(identity.role, 'admin')) {
      throw forbidden(
        'Reading a file on the server (path) needs the admin role; upload the file instead, or ask an admin.',
      );
    }
    const { path, ...options } = body;
    return { input: { kind: 'path', path } satisfies InteropInput, options };
  };

  for (const [endpoint, dryRun] of [
    [api.previewInterop, true],
    [api.importInterop, false],
  ] as const) {
    const status = 200;
    app.route({
      method: endpoint.method,
      url: `/api${endpoint.path}`,
      schema: {
        tags: [tag],
        summary: endpoint.summary,
        description: accessDescription(endpoint.access) + UPLOAD_NOTE,
        body: endpoint.body,
        response: responseSchemas(status, endpoint.response, errorStatuses(endpoint as Endpoint)),
      },
      config: { access: endpoint.access, ...rateLimited },
      handler: async (request, reply) => {
        const { input, options } = await inputOf(request);
        const result = await runInterop(deps, input, options, dryRun);
        reply.status(status);
        return result;
      },
    });
  }

  // Not JSON: the file itself, so it is registered without the JSON response serializer of route().
  const exported = api.exportInterop;
  app.route({
    method: exported.method,
    url: `/api${exported.path}`,
    config: { access: exported.access },
    // Files up to tens of MB, written while they are sent: compressed at a fast level.
    compress: DOWNLOAD_COMPRESSION,
    schema: {
      tags: [tag],
      summary: exported.summary,
      description: accessDescription(exported.access),
      params: exported.params,
      querystring: exported.query,
      response: {
        ...responseSchemas(200, z.string(), errorStatuses(exported)),
        200: {
          description: "The DJ program's file",
          content: {
            'application/xml': { schema: z.string() },
            'application/octet-stream': { schema: z.string() },
            'audio/x-mpegurl': { schema: z.string() },
            'text/csv': { schema: z.string() },
          },
        },
      },
    },
    handler: async (request, reply) => {
      const { format } = request.params as z.output<typeof exported.params>;
      const query = request.query as z.output<typeof exported.query>;
      const { playlist_id, event_id, fresh_pool, map, ...filter } = query;
      const selection = {
        ...(playlist_id !== undefined ? { playlistId: playlist_id } : {}),
        ...(event_id !== undefined ? { eventId: event_id } : {}),
        ...(fresh_pool ? { freshPool: true } : {}),
        ...(map ? { mappings: map } : {}),
        filter,
      };
      // Written while it is sent (services/interop/export.ts).
      const streamed = await streamSongs(deps, format, selection);
      return reply
        .type(streamed.contentType)
        .header('content-disposition', attachment(streamed.fileName))
        .send(streamed.stream);
    },
  });
}
