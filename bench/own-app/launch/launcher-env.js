// @ts-check
// What the launcher reads from its environment: shared by the bench, which sets it, and the launcher.
import { pathToFileURL } from 'node:url';

/** Printed on stderr before a one-line refusal the bench shows as it is. */
export const REFUSAL_PREFIX = 'nest-app refused: ';

/**
 * @param {{ moduleFile: string, exportName: string | null, setupFile: string | null, mainFile?: string | null,
 *   fastifyOptions?: Record<string, unknown> | null, strict?: boolean,
 *   packageSet?: { dir: string, names: string[] } }} app packageSet: the set whose packages replace the app's own
 * @param {'express' | 'fastify'} adapter
 * @returns {Record<string, string>}
 */
export function launcherEnv(
  { moduleFile, exportName, setupFile, mainFile = null, fastifyOptions = null, strict = false, packageSet },
  adapter,
) {
  return {
    NEST_APP_MODULE: moduleFile,
    NEST_APP_ADAPTER: adapter,
    ...(exportName ? { NEST_APP_EXPORT: exportName } : {}),
    ...(setupFile ? { NEST_APP_SETUP: setupFile } : {}),
    ...(mainFile ? { NEST_APP_MAIN: mainFile } : {}),
    ...(fastifyOptions ? { NEST_APP_FASTIFY_OPTIONS: JSON.stringify(fastifyOptions) } : {}),
    ...(strict ? { NEST_APP_STRICT: '1' } : {}),
    ...(packageSet ? { NEST_APP_SET: packageSet.dir, NEST_APP_SET_PACKAGES: packageSet.names.join(',') } : {}),
  };
}

/**
 * What node runs for the app, after its runtime flags: the launcher, or with --nest-main the app's own main with the
 * launcher preloaded into it (node's --import, which ESM and CommonJS mains alike run after).
 * @param {{ mainFile?: string | null }} app @param {string} launcher the launcher's path
 */
export function launcherArgs({ mainFile = null }, launcher) {
  return mainFile ? ['--import', pathToFileURL(launcher).href, mainFile] : [launcher];
}

/**
 * An error's message in one line: its first line with words, and the next where that one ends in a colon. An env
 * validation that opens with a newline ("\nError in ELASTICSEARCH_NODE:\n+ isString: …") read as nothing.
 * @param {string} message
 */
export function messageLine(message) {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const [first = '', next] = lines;
  return first.endsWith(':') && next ? `${first} ${next}` : first;
}
