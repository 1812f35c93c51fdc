import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { getSongMetadata, lookupSongMetadata, metadataProviders } from '../services/metadata/lookup.js';
import { deleteSong, getSong, listSongPlays, listSongs, searchSongs, updateSong } from '../services/songs.js';
import { route } from './define.js';

export async function songRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'songs', api.listSongs, async ({ query }) => listSongs(deps.db, query));
  route(app, 'songs', api.searchSongs, async ({ query }) => searchSongs(deps.db, query));
  route(app, 'songs', api.getSong, async ({ params }) => getSong(deps.db, params.id));
  route(app, 'songs', api.updateSong, async ({ params, body }) =>
    updateSong(deps.db, params.id, body, deps.jobs),
  );
  route(app, 'songs', api.deleteSong, async ({ params }) => deleteSong(deps.db, params.id, deps.jobs));
  route(app, 'songs', api.getSongMetadata, async ({ params }) => getSongMetadata(deps, params.id));
  route(app, 'songs', api.lookupSongMetadata, async ({ params, body }) => {
    const {
      errors: _errors,
      asked: _asked,
      ...result
    } = await lookupSongMetadata(deps, params.id, {
      force: body?.force ?? false,
    });
    return result;
  });
  route(app, 'songs', api.metadataProviders, async () => metadataProviders(deps.config.metadata));
  route(app, 'songs', api.listSongPlays, async ({ params, query }) =>
    listSongPlays(deps.db, params.id, query),
  );
}
