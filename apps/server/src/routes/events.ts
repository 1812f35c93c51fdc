import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import {
  createEvent,
  deleteEvent,
  getEvent,
  listEvents,
  listSocials,
  updateEvent,
} from '../services/events.js';
import { route } from './define.js';

export async function eventRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'events', api.listEvents, async ({ query }) => listEvents(deps.db, query));
  route(app, 'events', api.getEvent, async ({ params }) => getEvent(deps.db, params.id));
  route(app, 'events', api.createEvent, async ({ body }) => createEvent(deps.db, body));
  route(app, 'events', api.updateEvent, async ({ params, body }) =>
    updateEvent(deps.db, params.id, body, deps.jobs),
  );
  route(app, 'events', api.deleteEvent, async ({ params }) => deleteEvent(deps.db, params.id, deps.jobs));
  route(app, 'events', api.listSocials, async ({ params }) => listSocials(deps.db, params.id));
}
