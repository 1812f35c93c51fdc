import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { healthRoutes } from './health.js';

/** Every API area; each file registers its own endpoints of the contract. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await healthRoutes(app, deps);
}
