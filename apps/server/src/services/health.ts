import type pg from 'pg';
import { unavailable } from './errors.js';

export async function checkHealth(pool: pg.Pool): Promise<{ status: 'ok'; database: 'ok' }> {
  try {
    await pool.query('select 1');
  } catch (error) {
    throw unavailable(`The database does not answer: ${(error as Error).message}`);
  }
  return { status: 'ok', database: 'ok' };
}
