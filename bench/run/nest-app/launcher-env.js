// @ts-check
// What the launcher reads from its environment: shared by the bench, which sets it, and the launcher.

/** Printed on stderr before a one-line refusal the bench shows as it is. */
export const REFUSAL_PREFIX = 'nest-app refused: ';

/**
 * @param {{ moduleFile: string, exportName: string | null, setupFile: string | null }} app
 * @param {'express' | 'fastify'} adapter
 * @returns {Record<string, string>}
 */
export function launcherEnv({ moduleFile, exportName, setupFile }, adapter) {
  return {
    NEST_APP_MODULE: moduleFile,
    NEST_APP_ADAPTER: adapter,
    ...(exportName ? { NEST_APP_EXPORT: exportName } : {}),
    ...(setupFile ? { NEST_APP_SETUP: setupFile } : {}),
  };
}
