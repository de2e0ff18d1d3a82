import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Kept between runs, so only the first one downloads (a fresh CI machine resolves everything anew): npm's cache, yarn's
 * and pnpm's store, for the fixture apps installed from their own lockfiles.
 */
export const INSTALL_CACHE = join(tmpdir(), 'nest-adapter-bench-install-cache');

/** The environment of a package manager run in a fixture app: none of the npm run that started the tests. */
export function appEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, YARN_CACHE_FOLDER: join(INSTALL_CACHE, 'yarn'), npm_config_update_notifier: 'false' };
}

/** `npm ci` from the app's own package-lock.json, with npm's cache under INSTALL_CACHE. */
export const NPM_CI = [
  'npm',
  'ci',
  '--prefer-offline',
  '--no-audit',
  '--no-fund',
  `--cache=${join(INSTALL_CACHE, 'npm')}`,
];
