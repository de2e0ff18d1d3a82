// @ts-check
/**
 * Package sets from the npm registry, installed in isolation into a cache the project owns (`.packages/<kind>-<range>/`)
 * the way runtimes are (bench/runtimes/npm-cache.js); later runs reuse them without touching the network.
 *
 * A Nest set is the major's newest @nestjs/* packages with what they depend on (their Express and Fastify), and the
 * companions the era app needs at the ranges @nestjs/common asks its peers for. The registry's publication times are
 * not used: the registry this was built against reports when it mirrored a release, not when it was published.
 */
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { UsageError } from '../errors.js';
import {
  NPM_INSTALL_FLAGS,
  NPM_INSTALL_TIMEOUT_MS,
  NPM_MAX_BUFFER,
  NPM_VIEW_TIMEOUT_MS,
  describeNpmFailure,
  execFileAsync,
  installStaged,
  readMarker,
} from '../runtimes/npm-cache.js';

/** @typedef {import('./set-specs.js').SetSpec} SetSpec */
/**
 * @typedef {import('../model/package-sets-record.js').PackageSet} PackageSet
 * @typedef {import('../model/package-sets-record.js').SetDatabase} SetDatabase
 */
/** @typedef {(pkg: string, field: string) => Promise<any>} ViewField what `npm view <pkg> <field> --json` says */

export const DEFAULT_SETS_DIR = fileURLToPath(new URL('../../.packages/', import.meta.url));
const MARKER_FILE = 'set.json';
const NEST_CORE = '@nestjs/core';
const PLATFORM_PACKAGES = ['@nestjs/platform-express', '@nestjs/platform-fastify'];
const NEST_PACKAGES = [NEST_CORE, '@nestjs/common', ...PLATFORM_PACKAGES];
/** Before Nest 6 both adapters lived in @nestjs/core (which depends on Express); its FastifyAdapter loads these. */
const FIRST_PLATFORM_MAJOR = 6;
/** Fastify 1 was current through Nest 5's life (2.0 came a month before Nest 6); fastify-formbody 2 is its body parser. */
const CORE_FASTIFY_ADAPTER_NEEDS = Object.freeze({ fastify: '1', 'fastify-formbody': '2' });
/** What the era app needs beside Nest, at the versions of the set's day. */
const NEST_COMPANIONS = ['reflect-metadata', 'rxjs', 'class-validator', 'class-transformer'];
/** Read from every set once installed, whether asked for or brought in. */
const REPORTED = [...NEST_PACKAGES, 'express', 'fastify', ...NEST_COMPANIONS];
const NEST_TYPEORM = '@nestjs/typeorm';
/** The TypeORM API the app's services use (DataSource, findOneBy) came with 0.3. */
export const APP_TYPEORM_RANGE = '>=0.3.0';
/** The drivers DatabaseModule loads (sql.js serves; mysql2 is required with it), at the app's own ranges. */
const DRIVERS = ['sql.js', 'mysql2'];
const DATABASE_PACKAGES = [NEST_TYPEORM, 'typeorm', ...DRIVERS];
/** The built-in app's manifest, in the clone only: the npm package leaves it out, and the app's stack with it. */
const APP_MANIFEST = new URL('../../app/package.json', import.meta.url);

/**
 * The set from the cache, installed first when it is not there yet.
 * @param {SetSpec} spec
 * @param {{ cacheDir?: string, log?: (line: string) => void, view?: ViewField }} [options]
 * @returns {Promise<PackageSet>}
 */
export async function installedSet(spec, { cacheDir = DEFAULT_SETS_DIR, log = () => {}, view = npmView } = {}) {
  const dir = path.join(cacheDir, `${spec.kind}-${spec.range}`);
  const cached = await readMarker(dir, MARKER_FILE);
  if (cached) return { .../** @type {Omit<PackageSet, 'dir'>} */ (cached), dir };
  const resolved = await resolveSet(spec, view);
  const started = Date.now();
  log(`packages: installing ${spec.text} (${describeAnchors(resolved.anchors)}) into ${dir}; first time only`);
  await installStaged(dir, MARKER_FILE, async (staging) => {
    // the era app and servers copied in later are CommonJS, whatever the project's own package.json says
    await fs.writeFile(path.join(staging, 'package.json'), `${JSON.stringify({ private: true, type: 'commonjs' })}\n`);
    const args = [
      'install',
      ...Object.entries({ ...resolved.anchors, ...resolved.companions, ...resolved.database.packages }).map(
        ([name, range]) => `${name}@${range}`,
      ),
      '--prefix',
      staging,
      ...NPM_INSTALL_FLAGS,
      // old trees declare peers that newer npm would refuse to place; the set lists what it needs itself
      '--legacy-peer-deps',
    ];
    try {
      await execFileAsync('npm', args, { cwd: staging, timeout: NPM_INSTALL_TIMEOUT_MS, maxBuffer: NPM_MAX_BUFFER });
    } catch (error) {
      throw new UsageError(
        `--packages: ${spec.text}: ${describeNpmFailure(error, { packages: describeAnchors(resolved.anchors), missing: `npm found no release of ${describeAnchors(resolved.anchors)}` })}`,
      );
    }
    const installed = readInstalled(staging, REPORTED);
    return {
      spec: spec.text,
      kind: spec.kind,
      label: `${spec.kind}@${installed.versions[anchorPackage(spec.kind)]}`,
      versions: installed.versions,
      engines: installed.engines,
      ...(spec.kind === 'nest'
        ? {
            database: resolved.database.refused
              ? { versions: {}, engines: {}, refused: resolved.database.refused }
              : { ...readInstalled(staging, DATABASE_PACKAGES), refused: null },
          }
        : {}),
    };
  });
  const set = /** @type {PackageSet} */ ({ ...(await readMarker(dir, MARKER_FILE)), dir });
  log(`packages: ${spec.text} is ${describeSet(set)}, installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return set;
}

/** @param {import('./set-specs.js').SetKind} kind */
function anchorPackage(kind) {
  return kind === 'nest' ? NEST_CORE : kind;
}

/** @param {Record<string, string>} anchors */
function describeAnchors(anchors) {
  return Object.entries(anchors)
    .map(([name, version]) => `${name}@${version}`)
    .join(', ');
}

/**
 * The set in one line: `nest@10.4.9 (express 4.21.1, fastify 4.28.1)`.
 * @param {Pick<PackageSet, 'label' | 'kind' | 'versions'>} set
 */
export function describeSet(set) {
  const frameworks = ['express', 'fastify'].filter((name) => set.versions[name] && set.kind !== name);
  if (frameworks.length === 0) return set.label;
  return `${set.label} (${frameworks.map((name) => `${name} ${set.versions[name]}`).join(', ')})`;
}

/**
 * Which release of each anchor package the spec means (`nest@6`: the newest 6.x), and for a Nest set the companions'
 * ranges. `@nestjs/common` follows core; the platform packages skip some of core's releases, so they take their newest
 * of core's major up to core's version. Nest 5 has no platform packages: its set brings Fastify for core's adapter.
 * @param {SetSpec} spec
 * @param {ViewField} view
 * @returns {Promise<{ anchors: Record<string, string>, companions: Record<string, string>,
 *   database: { packages: Record<string, string>, refused: string | null } }>}
 * @throws {UsageError} when no release matches
 */
export async function resolveSet(spec, view) {
  const names = spec.kind === 'nest' ? NEST_PACKAGES : [spec.kind];
  /** @type {Record<string, string>} */
  const anchors = {};
  for (const name of names) {
    const core = anchors[NEST_CORE];
    if (core && PLATFORM_PACKAGES.includes(name) && semver.major(core) < FIRST_PLATFORM_MAJOR) continue;
    const range = !core ? spec.range : name === '@nestjs/common' ? core : `>=${semver.major(core)}.0.0 <=${core}`;
    const version = await newestRelease(view, name, range);
    if (version === null)
      throw new UsageError(`--packages: ${spec.text}: no ${name} release matches ${range} in the npm registry`);
    anchors[name] = version;
  }
  const noDatabase = { packages: {}, refused: null };
  if (spec.kind !== 'nest') return { anchors, companions: {}, database: noDatabase };
  /** @type {Record<string, string>} */
  const peers = (await view(`@nestjs/common@${anchors['@nestjs/common']}`, 'peerDependencies')) ?? {};
  const companions = Object.fromEntries(
    NEST_COMPANIONS.map((name) => [name, peers[name] && peers[name] !== '*' ? peers[name] : 'latest']),
  );
  const adapters = semver.major(anchors[NEST_CORE]) < FIRST_PLATFORM_MAJOR ? CORE_FASTIFY_ADAPTER_NEEDS : {};
  return {
    anchors,
    companions: { ...companions, ...adapters },
    database: await resolveDatabase(anchors[NEST_CORE], view),
  };
}

/**
 * The era's TypeORM for the app's DB routes: the newest @nestjs/typeorm of core's major and the newest TypeORM it
 * asks for, when that TypeORM has the API the app uses; else why not.
 * @param {string} core @param {ViewField} view
 * @returns {Promise<{ packages: Record<string, string>, refused: string | null }>}
 */
async function resolveDatabase(core, view) {
  if (!existsSync(APP_MANIFEST))
    return {
      packages: {},
      refused: 'the built-in app ships with a clone of nest-adapter-bench, not with its npm package',
    };
  /** @type {Record<string, string>} */
  const appDependencies = JSON.parse(readFileSync(APP_MANIFEST, 'utf8')).dependencies;
  const major = `${semver.major(core)}.x`;
  const integration = await newestRelease(view, NEST_TYPEORM, major);
  if (integration === null) return { packages: {}, refused: `the registry has no ${NEST_TYPEORM} ${major}` };
  /** @type {Record<string, string>} */
  const peers = (await view(`${NEST_TYPEORM}@${integration}`, 'peerDependencies')) ?? {};
  const typeorm = peers.typeorm ? await newestRelease(view, 'typeorm', peers.typeorm) : null;
  if (typeorm === null || !semver.satisfies(typeorm, APP_TYPEORM_RANGE))
    return {
      packages: {},
      refused: `${NEST_TYPEORM} ${integration} asks for typeorm ${peers.typeorm ?? '(none)'}${typeorm ? ` (newest ${typeorm})` : ''}; the app's services need typeorm ${APP_TYPEORM_RANGE} (DataSource, findOneBy)`,
    };
  return {
    packages: {
      [NEST_TYPEORM]: integration,
      typeorm,
      ...Object.fromEntries(DRIVERS.map((name) => [name, appDependencies[name]])),
    },
    refused: null,
  };
}

/**
 * The newest stable release of `name` in `range`, or null.
 * @param {ViewField} view @param {string} name @param {string} range
 * @returns {Promise<string | null>}
 */
async function newestRelease(view, name, range) {
  /** @type {string[]} */
  const releases = [await view(name, 'versions')].flat().filter((key) => semver.valid(key) && !semver.prerelease(key));
  return semver.maxSatisfying(releases, range);
}

/** @type {ViewField} */
async function npmView(pkg, field) {
  try {
    const { stdout } = await execFileAsync('npm', ['view', pkg, field, '--json'], {
      timeout: NPM_VIEW_TIMEOUT_MS,
      maxBuffer: NPM_MAX_BUFFER,
    });
    return stdout.trim() === '' ? null : JSON.parse(stdout);
  } catch (error) {
    throw new UsageError(
      `--packages: npm view ${pkg} failed (${describeNpmFailure(error, { packages: pkg, missing: `the registry has no package ${pkg}` })})`,
    );
  }
}

/**
 * The versions and engines of what an install put at the top of node_modules.
 * @param {string} dir @param {string[]} names
 */
function readInstalled(dir, names) {
  /** @type {Record<string, string>} */
  const versions = {};
  /** @type {Record<string, string>} */
  const engines = {};
  for (const name of names) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    versions[name] = manifest.version;
    if (typeof manifest.engines?.node === 'string') engines[name] = manifest.engines.node;
  }
  return { versions, engines };
}

/**
 * The first package of the set whose `engines.node` excludes the runtime, or null. `version` is a full version
 * (`10.24.1`) or a spec's range (`10`: the line), so a runtime is refused before it is downloaded.
 * @param {Pick<PackageSet, 'engines'>} set
 * @param {string} version
 * @returns {{ name: string, engines: string } | null}
 */
export function engineConflict(set, version) {
  for (const [name, engines] of Object.entries(set.engines)) {
    if (!semver.validRange(engines)) continue;
    const fits = semver.valid(version) ? semver.satisfies(version, engines) : semver.intersects(version, engines);
    if (!fits) return { name, engines };
  }
  return null;
}
