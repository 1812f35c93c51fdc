import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the schema: `npx drizzle-kit generate --config apps/server/drizzle.config.ts`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/server/src/db/schema.ts',
  out: './apps/server/src/db/migrations',
});
