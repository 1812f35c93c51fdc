import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { importLibraryInRoots } from '../services/library/library-pipeline.js';
import { route } from './define.js';

export async function libraryRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'library', api.importLibrary, async ({ body }) => importLibraryInRoots(deps, body.folder));
}
