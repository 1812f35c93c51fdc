#!/usr/bin/env node
// The `wcs` command. Plain JavaScript, so it can say what to do when the server is not built.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('Run "npm start" or "npx tsc -b apps/server" first to build the server.');
  process.exit(1);
}
await import(cli.href);
