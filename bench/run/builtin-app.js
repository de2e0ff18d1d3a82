// @ts-check
// The built-in setup's prepare step, which the run takes before any server starts: build this repository's app when a
// Nest target runs, write the files it serves, make the transport twins' certificate, and mint the secure scenario's
// token with this run's secret. The setup itself is data (model/builtin-config.js).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILES_DIR, SERVED_FILES, TLS_DIR, makeCertificate, transportTargets } from '../model/beyond.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { writeServedFiles } from '../model/payloads.js';
import { PROJECT_ROOT } from '../model/project-root.js';
import { ensureBuilt } from './build.js';

/** The token must outlive the longest run anyone would start. */
const TOKEN_TTL_SECONDS = 24 * 3600;
const TOKEN_MODULE = join(PROJECT_ROOT, 'dist', 'auth', 'token.js');
const TRANSPORT_TARGETS = new Set(
  transportTargets(() => ({ command: [], cwd: '' }), { express: '', fastify: '' }).map((t) => t.name),
);

/**
 * Build the app when a Nest target runs; give every target this run's JWT secret and the secure scenario a token;
 * write the files the app serves (the transfer twins carry APP_TRANSFER=1 in their own environment).
 * @type {import('../model/config.js').PrepareStep}
 */
export async function prepareBuiltinApp({ targets, scenarios, log }) {
  if (targets.some((name) => name.startsWith('nest-'))) ensureBuilt(log);
  await writeServedFiles(FILES_DIR, SERVED_FILES);
  if (targets.some((name) => TRANSPORT_TARGETS.has(name))) await makeCertificate(TLS_DIR);
  const secret = randomBytes(32).toString('hex');
  // a mix needs a token when one of its routes does
  const chosen = BUILTIN_CONFIG.scenarios.filter((s) => scenarios.includes(s.name));
  const routes = chosen.flatMap((s) => s.mix?.map((share) => share.route) ?? [s.name]);
  const needsToken = BUILTIN_CONFIG.scenarios.some((s) => s.needsToken && routes.includes(s.name));
  return {
    env: { JWT_SECRET: secret, FILES_DIR },
    token: needsToken ? await mintToken(secret, log) : null,
  };
}

/**
 * A bearer token for the secure scenario, signed with this run's secret by the app's own helper.
 * @param {string} secret
 * @param {(line: string) => void} log
 * @returns {Promise<string | null>} null when the compiled helper is missing (the secure pairs then fail verification)
 */
async function mintToken(secret, log) {
  if (!existsSync(TOKEN_MODULE)) {
    log(`note: ${TOKEN_MODULE} not found, so no token for the secure scenario`);
    return null;
  }
  try {
    const { signToken } = await import(pathToFileURL(TOKEN_MODULE).href);
    return signToken(secret, TOKEN_TTL_SECONDS);
  } catch (error) {
    log(`note: could not mint a token for the secure scenario: ${/** @type {Error} */ (error).message}`);
    return null;
  }
}

/** The built-in setup as a run uses it: the data, and the step that prepares the app. */
export const BUILTIN_RUN_CONFIG = Object.freeze({ ...BUILTIN_CONFIG, prepare: prepareBuiltinApp });
