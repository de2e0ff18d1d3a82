// @ts-check
// The Nest targets run the compiled app: build it when dist/ is missing or older than any source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { APP_ENTRIES } from '../model/builtin-config.js';
import { PROJECT_ROOT } from '../model/project-root.js';

const SOURCE_DIR = join(PROJECT_ROOT, 'src');

/** @param {string} dir @returns {number} newest modification time of any file below dir */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** @param {string} file relative to the project root */
function mtimeOrZero(file) {
  try {
    return statSync(join(PROJECT_ROOT, file)).mtimeMs;
  } catch {
    return 0;
  }
}

/** The compiled entrypoints that are missing or older than src/, relative to the project root. */
export function staleEntries() {
  const sourceTime = newestMtime(SOURCE_DIR);
  return Object.values(APP_ENTRIES).filter((entry) => mtimeOrZero(entry) < sourceTime);
}

/**
 * The built-in app is this repository's src/, which the npm package does not hold.
 * @param {string} flag what asked for it @param {string} instead the flags that work from the package
 * @throws {UsageError} when the bench runs from its npm package
 */
export function requireBuiltInApp(flag, instead) {
  if (!existsSync(SOURCE_DIR))
    throw new UsageError(
      `${flag}: the built-in app ships with a clone of nest-adapter-bench, not with its npm package; ${instead}`,
    );
}

/**
 * Run `nest build` when needed.
 * @param {(line: string) => void} log
 * @throws {Error} when the build fails
 * @throws {UsageError} when the bench runs from its npm package
 */
export function ensureBuilt(log) {
  requireBuiltInApp('the built-in setup', 'give --nest-app (your Nest module) or --config (your servers)');
  const stale = staleEntries();
  if (stale.length === 0) return;
  log(`building the app (${stale.join(', ')} missing or older than src/): npx nest build`);
  const build = spawnSync('npx', ['nest', 'build'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0)
    throw new Error(
      `npx nest build failed (exit code ${build.status}); fix the errors above, then run the bench again`,
    );
}
