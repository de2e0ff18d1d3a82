// @ts-check
// --nest-app with --packages: the app's own imports of what a package set holds (@nestjs/*, Express, Fastify and the
// companions whose state Nest shares with the app: rxjs, class-validator...) resolve in the set's folder, so the user's
// compiled code runs on the set's packages. module.registerHooks covers require and import alike.
import module, { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';

/** The Node releases with module.registerHooks. */
export const REGISTER_HOOKS_NODE = '^22.15.0 || >=23.5.0';

/**
 * `@nestjs/common/constants` → `@nestjs/common`; a relative or node: specifier → null.
 * @param {string} specifier
 */
export function packageName(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * From now on, every import and require of one of `names` (or a file inside it) loads the set's copy.
 * @param {string} dir the set's folder
 * @param {string[]} names
 */
export function resolveFromSet(dir, names) {
  const fromSet = createRequire(path.join(dir, 'package.json'));
  // fromSet.resolve itself goes through the hook: inside it, resolution goes on as usual (from the set's folder)
  let inside = false;
  // the project's @types/node (20) predates registerHooks
  /** @type {any} */ (module).registerHooks({
    /** @param {string} specifier @param {object} context @param {(s: string, c: object) => object} nextResolve */
    resolve(specifier, context, nextResolve) {
      const name = packageName(specifier);
      if (inside || name === null || !names.includes(name)) return nextResolve(specifier, context);
      inside = true;
      try {
        return { url: pathToFileURL(fromSet.resolve(specifier)).href, shortCircuit: true };
      } finally {
        inside = false;
      }
    },
  });
}

/**
 * Why the user's app cannot run on this set and runtime, or null.
 * @param {Pick<import('../../packages/sets.js').PackageSet, 'label' | 'versions'>} set
 * @param {{ name: string, version: string }} runtime
 * @returns {string | null}
 */
export function setRefusal(set, runtime) {
  if (!set.versions['@nestjs/platform-express'])
    return `${set.label} has no @nestjs/platform-express (its adapters are inside @nestjs/core); the bench boots an app on Nest 6 or later`;
  if (runtime.name !== 'node' || !semver.satisfies(runtime.version, REGISTER_HOOKS_NODE))
    return `${runtime.name} ${runtime.version} has no module.registerHooks (node ${REGISTER_HOOKS_NODE}), which puts the set's packages in place of the app's own`;
  return null;
}
