// API benchmark: builds what is stale, loads a community-scale dataset (20,000 songs, 1,000
// events, ~5,000 socials, 1,000,000 plays) into a scratch data folder with its own embedded
// PostgreSQL, starts the server in-process and prints p50/p95 of every GET call of the contract.
//   node scripts/bench/api.mjs [--scale 0.1] [--requests 30] [--warmups 3] [--seed 1]
//                              [--only <name part>] [--data-dir DIR] [--keep]
// With --data-dir the dataset is kept and reused by later runs of the same scale and seed.
// --uploaders N: N devices upload 10 s chunks without pause while the calls are timed (writes
// under load: each chunk is decoded, stored and recognised), and their upload latency is printed;
// --chunk-seconds S sets the chunks' length, --realtime sends one chunk every S seconds per device
// as a recorder does; --index-songs N fingerprints N songs of the dataset as synthetic songs and
// the chunks are those songs through noise, so recognition does a library's work; --job-process runs
// the jobs (recognition) in a `wcs worker` of their own, the in-process server serving HTTP alone.
// --only matches a call's name or path (--only /analytics: the Analytics screens).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EnsureError, ensureBuilt, ensureNodeModules, repoRoot, runMain } from '../ensure.mjs';

const usage =
  'usage: node scripts/bench/api.mjs [--scale F] [--requests N] [--warmups N] [--seed N] [--uploaders N] [--chunk-seconds S] [--realtime] [--index-songs N] [--job-process] [--only TEXT] [--data-dir DIR] [--keep]';

function parseArgs(argv) {
  const options = {};
  const numbers = {
    '--scale': 'scale',
    '--requests': 'requests',
    '--warmups': 'warmups',
    '--seed': 'seed',
    '--uploaders': 'uploaders',
    '--chunk-seconds': 'chunkSeconds',
    '--index-songs': 'indexSongs',
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new EnsureError(`${flag} needs a value\n${usage}`);
      return next;
    };
    if (flag in numbers) {
      const number = Number(value());
      if (!Number.isFinite(number) || number < 0) throw new EnsureError(`${flag} must be a number\n${usage}`);
      options[numbers[flag]] = number;
    } else if (flag === '--only') options.only = value();
    else if (flag === '--data-dir') options.dataDir = path.resolve(value());
    else if (flag === '--keep') options.keep = true;
    else if (flag === '--realtime') options.realtime = true;
    else if (flag === '--job-process') options.jobProcess = true;
    else throw new EnsureError(`unknown argument ${argv[i]}\n${usage}`);
  }
  return options;
}

runMain(async () => {
  const options = parseArgs(process.argv.slice(2));
  ensureNodeModules();
  ensureBuilt(['server']);
  const { runApiBenchmark } = await import(
    pathToFileURL(path.join(repoRoot, 'apps/server/dist/bench/api.js')).href
  );
  await runApiBenchmark(options);
});
