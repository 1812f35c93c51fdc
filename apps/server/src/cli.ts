import { runCli } from './cli/index.js';

await runCli();
