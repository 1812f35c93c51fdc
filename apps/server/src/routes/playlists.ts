import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import {
  getPlaylist,
  getPlaylistFile,
  listPlaylistSongs,
  listPlaylists,
  regenerateAllPlaylists,
  regeneratePlaylist,
} from '../services/playlists/playlists.js';
import { accessDescription, errorStatuses, responseSchemas, route } from './define.js';

/** `attachment` with the file name, plain ASCII for old clients and RFC 5987 UTF-8 for the rest. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export async function playlistRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'playlists', api.listPlaylists, async ({ query }) => listPlaylists(deps.db, query));
  route(app, 'playlists', api.regeneratePlaylists, async ({ request }) =>
    regenerateAllPlaylists(deps.db, deps.config, request.identity),
  );
  route(app, 'playlists', api.getPlaylist, async ({ params }) => getPlaylist(deps.db, params.id));
  route(app, 'playlists', api.listPlaylistSongs, async ({ params, query }) =>
    listPlaylistSongs(deps.db, params.id, query),
  );
  route(app, 'playlists', api.regeneratePlaylist, async ({ params, request }) =>
    regeneratePlaylist(deps.db, deps.config, params.id, request.identity),
  );

  // Not JSON: the file itself, so it is registered without the JSON response serializer of route().
  const m3u8 = api.downloadPlaylistM3u8;
  app.route({
    method: m3u8.method,
    url: `/api${m3u8.path}`,
    config: { access: m3u8.access },
    schema: {
      tags: ['playlists'],
      summary: m3u8.summary,
      description: accessDescription(m3u8.access),
      params: m3u8.params,
      response: {
        ...responseSchemas(200, z.string(), errorStatuses(m3u8)),
        200: { description: 'The M3U8 file', content: { 'audio/x-mpegurl': { schema: z.string() } } },
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params as z.output<typeof m3u8.params>;
      const file = await getPlaylistFile(deps.db, deps.config, id);
      return reply
        .type('audio/x-mpegurl; charset=utf-8')
        .header('content-disposition', attachment(file.fileName))
        .send(file.content);
    },
  });
}
