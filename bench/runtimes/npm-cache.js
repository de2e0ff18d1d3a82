// @ts-check
// A cache folder filled by `npm install` (runtimes in `.runtimes/`, package sets in `.packages/`): each entry is filled
// in a staging folder of its own, marked complete there, then moved into place in one rename, so an interrupted install
// never looks complete and two benches installing the same entry at once both end up with one good copy.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export const execFileAsync = promisify(execFile);

export const NPM_INSTALL_TIMEOUT_MS = 10 * 60_000;
export const NPM_VIEW_TIMEOUT_MS = 30_000;
export const NPM_MAX_BUFFER = 16 * 1024 * 1024;
/** The flags every cache install takes: nothing written outside the staging folder, no install scripts run. */
export const NPM_INSTALL_FLAGS = Object.freeze([
  '--no-save',
  '--no-package-lock',
  '--ignore-scripts',
  '--no-audit',
  '--no-fund',
  '--prefer-offline',
  '--loglevel=error',
]);

/**
 * The marker a complete entry holds, or null when the entry is absent or incomplete.
 * @template T
 * @param {string} dir
 * @param {string} markerFile
 * @returns {Promise<T | null>}
 */
export async function readMarker(dir, markerFile) {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, markerFile), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Fills `dir` through `fill(staging)`, which installs into the staging folder and returns the marker to write there.
 * @param {string} dir
 * @param {string} markerFile
 * @param {(staging: string) => Promise<object>} fill
 */
export async function installStaged(dir, markerFile, fill) {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const staging = await fs.mkdtemp(`${dir}.partial-`);
  try {
    const marker = await fill(staging);
    await fs.writeFile(path.join(staging, markerFile), `${JSON.stringify(marker, null, 2)}\n`);
    await moveIntoPlace(staging, dir, markerFile);
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/**
 * @param {string} staging a complete install
 * @param {string} dir where it belongs
 * @param {string} markerFile
 */
async function moveIntoPlace(staging, dir, markerFile) {
  try {
    await fs.rename(staging, dir);
    return;
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
  // `dir` exists: either another bench finished installing first (keep its copy) or an old install without a marker
  if (await readMarker(dir, markerFile)) return;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rename(staging, dir);
}

/**
 * One line saying why an npm command failed, from npm's `npm error code X` output.
 * @param {any} error from execFile
 * @param {{ packages: string, missing: string }} what the packages it was about; what to say when none matched
 */
export function describeNpmFailure(error, { packages, missing }) {
  if (error.code === 'ENOENT') return 'npm is not on PATH; it is needed to install from the npm registry';
  if (error.killed) return `npm on ${packages} took too long; check the network and retry`;
  const stderr = String(error.stderr ?? '');
  const code = /npm error code (\S+)/.exec(stderr)?.[1];
  if (code === 'ETARGET' || code === 'E404') return missing;
  // npm prints `code`, `syscall` and `errno` lines and a stack around the one line that says what happened.
  const reason = stderr
    .split('\n')
    .map((line) => /^npm error (?!code |syscall |errno |\s)(.+)/.exec(line)?.[1])
    .find(Boolean);
  return `could not install ${packages} from the npm registry: ${reason ?? code ?? `npm exited with code ${error.code}`}`;
}
