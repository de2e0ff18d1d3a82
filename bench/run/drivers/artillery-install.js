// @ts-check
// Artillery is no dependency of the bench (installing the bench leaves a user's app tree alone): the first run that
// asks for it installs it from the npm registry into the tool folder `.tools/`, as runtimes go into `.runtimes/`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { UsageError } from '../../errors.js';
import {
  NPM_INSTALL_FLAGS,
  NPM_INSTALL_TIMEOUT_MS,
  NPM_MAX_BUFFER,
  describeNpmFailure,
  execFileAsync,
  installStaged,
  readMarker,
} from '../../runtimes/npm-cache.js';

export const DEFAULT_TOOLS_DIR = fileURLToPath(new URL('../../../.tools/', import.meta.url));
export const ARTILLERY_RANGE = '2.0';
const MARKER_FILE = 'tool.json';

/**
 * @typedef {object} InstalledArtillery
 * @property {string} version
 * @property {string} bin its command-line entry, run as `node bin …` by the bench's own Node
 */

/**
 * Artillery from the tool folder, installed there first when it is not.
 * @param {(line: string) => void} log
 * @param {string} [toolsDir]
 * @returns {Promise<InstalledArtillery>}
 */
export async function installedArtillery(log, toolsDir = DEFAULT_TOOLS_DIR) {
  const dir = path.join(toolsDir, `artillery-${ARTILLERY_RANGE}`);
  /** @type {{ version: string, engines: string, bin: string } | null} */
  let marker = await readMarker(dir, MARKER_FILE);
  if (!marker) {
    log(`artillery: installing artillery@${ARTILLERY_RANGE} from the npm registry into ${dir}; first time only`);
    await installStaged(dir, MARKER_FILE, install);
    marker = /** @type {{ version: string, engines: string, bin: string }} */ (await readMarker(dir, MARKER_FILE));
  }
  if (!semver.satisfies(process.versions.node, marker.engines))
    throw new UsageError(
      `artillery ${marker.version} in ${dir} asks for Node ${marker.engines}, not ${process.versions.node}; delete ${dir} to install the newest 2.0 release this Node takes`,
    );
  return { version: marker.version, bin: path.join(dir, marker.bin) };
}

/**
 * npm picks the newest 2.0 release whose engines take the Node running it (2.0.22 and later ask for Node 22).
 * @param {string} staging
 */
async function install(staging) {
  const args = ['install', `artillery@${ARTILLERY_RANGE}`, '--prefix', staging, ...NPM_INSTALL_FLAGS];
  try {
    await execFileAsync('npm', args, { cwd: staging, timeout: NPM_INSTALL_TIMEOUT_MS, maxBuffer: NPM_MAX_BUFFER });
  } catch (error) {
    throw new UsageError(
      describeNpmFailure(error, {
        packages: `artillery@${ARTILLERY_RANGE}`,
        missing: `no artillery ${ARTILLERY_RANGE} release in the npm registry`,
      }),
    );
  }
  const pkg = JSON.parse(await readFile(path.join(staging, 'node_modules/artillery/package.json'), 'utf8'));
  return { version: pkg.version, engines: pkg.engines?.node ?? '*', bin: 'node_modules/artillery/bin/run' };
}
