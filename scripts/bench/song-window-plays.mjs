// What the play summary (song_window_plays) costs writers: recordPlays of 30,000 plays and one
// DELETE of them, with and without its triggers and the plays_song_event_idx index, on a scratch
// embedded PostgreSQL holding a million plays. Prints the medians as a Markdown table.
//   node scripts/bench/song-window-plays.mjs [--plays 30000] [--rounds 7] [--base-plays 1000000]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EnsureError, ensureBuilt, ensureNodeModules, repoRoot, runMain } from '../ensure.mjs';

const usage =
  'usage: node scripts/bench/song-window-plays.mjs [--plays N] [--rounds N] [--base-plays N] [--seed N]';

function parseArgs(argv) {
  const names = { '--plays': 'plays', '--rounds': 'rounds', '--base-plays': 'basePlays', '--seed': 'seed' };
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (!(flag in names)) throw new EnsureError(`unknown argument ${argv[i]}\n${usage}`);
    const number = Number(inline ?? argv[++i]);
    if (!Number.isInteger(number) || number < (flag === '--base-plays' ? 0 : 1)) {
      throw new EnsureError(
        `${flag} must be a whole number${flag === '--base-plays' ? '' : ' above 0'}\n${usage}`,
      );
    }
    options[names[flag]] = number;
  }
  return options;
}

runMain(async () => {
  const options = parseArgs(process.argv.slice(2));
  ensureNodeModules();
  ensureBuilt(['server']);
  const { runSongWindowPlaysBenchmark } = await import(
    pathToFileURL(path.join(repoRoot, 'apps/server/dist/bench/song-window-plays.js')).href
  );
  await runSongWindowPlaysBenchmark(options);
});
