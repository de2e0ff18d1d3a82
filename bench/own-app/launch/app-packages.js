// @ts-check
// What is installed beside the user's app, found the way Node finds it from there: the versions the scan's advice
// names (fastify, @fastify/cors and its default methods, @fastify/static, the GraphQL integrations), so a finding says
// what the app's own packages do, not what some other version would.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * @typedef {import('../../model/own-app-record.js').AppPackages} AppPackages
 * @typedef {import('../../model/own-app-record.js').PeerRange} PeerRange
 */

/** Nothing installed: what a scan without an app folder (a unit test's fixture) sees. */
export const NOTHING_INSTALLED = /** @type {AppPackages} */ ({
  fastify: null,
  fastifyCors: null,
  fastifyStatic: null,
  apollo: null,
  apolloFastify: null,
  mercurius: null,
});

/** @nestjs/apollo's last major on Apollo Server 3, whose Fastify integration is a package of Apollo's own. */
const LAST_APOLLO_SERVER_3_MAJOR = 10;

/**
 * The package @nestjs/apollo serves Apollo on Fastify through: apollo-server-fastify up to its 10 (Apollo Server 3),
 * @as-integrations/fastify from 11 (Apollo Server 4 and later) or when its version is not known.
 * @param {string | null} apolloVersion the installed @nestjs/apollo's
 */
export function apolloFastifyPackage(apolloVersion) {
  const major = Number(/^(\d+)\./.exec(apolloVersion ?? '')?.[1]);
  return major > 0 && major <= LAST_APOLLO_SERVER_3_MAJOR ? 'apollo-server-fastify' : '@as-integrations/fastify';
}

/**
 * @param {string} appDir a folder of the app (its compiled module's)
 * @returns {AppPackages}
 */
export function appPackages(appDir) {
  // Fastify's plugins load from where the app's @nestjs/platform-fastify sits, as Nest's loadPackage() loads them
  const platform = packageDir(appDir, '@nestjs/platform-fastify');
  const fromPlatform = platform ?? appDir;
  const cors = packageDir(fromPlatform, '@fastify/cors');
  const apollo = packageDir(appDir, '@nestjs/apollo');
  return {
    fastify: versionAt(packageDir(fromPlatform, 'fastify')),
    fastifyCors: cors ? { version: /** @type {string} */ (versionAt(cors)), methods: corsDefaultMethods(cors) } : null,
    fastifyStatic: versionAt(packageDir(fromPlatform, '@fastify/static')),
    apollo: versionAt(apollo),
    apolloFastify: versionAt(packageDir(apollo ?? appDir, apolloFastifyPackage(versionAt(apollo)))),
    mercurius: versionAt(packageDir(appDir, '@nestjs/mercurius')),
    fastifyStaticPeers: peerRanges([platform, packageDir(appDir, '@nestjs/swagger')], '@fastify/static'),
  };
}

/**
 * What each package in `dirs` declares it takes of `peer`.
 * @param {(string | null)[]} dirs @param {string} peer
 * @returns {PeerRange[]}
 */
function peerRanges(dirs, peer) {
  return dirs.flatMap((dir) => {
    if (!dir) return [];
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const range = json.peerDependencies?.[peer];
      return typeof range === 'string' ? [{ name: String(json.name), version: String(json.version), range }] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The folder of a package as Node resolves it from `from`: the nearest node_modules up the tree that holds it, its
 * links followed as Node follows them (pnpm links each package to its store folder, beside its own dependencies).
 * @param {string} from @param {string} name
 * @returns {string | null}
 */
function packageDir(from, name) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/** @param {string | null} dir */
function versionAt(dir) {
  if (!dir) return null;
  try {
    return String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version);
  } catch {
    return null;
  }
}

/**
 * `methods` in @fastify/cors's `defaultOptions`: GET,HEAD,POST since 10; every method before.
 * @param {string} dir
 */
function corsDefaultMethods(dir) {
  try {
    const main = String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).main ?? 'index.js');
    const source = readFileSync(join(dir, main.endsWith('.js') ? main : `${main}.js`), 'utf8');
    return /defaultOptions\s*=\s*\{[^}]*?methods:\s*['"]([^'"]+)['"]/s.exec(source)?.[1] ?? null;
  } catch {
    return null;
  }
}
