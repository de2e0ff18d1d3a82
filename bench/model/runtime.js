// @ts-check
// A runtime as the record names it (results.environment.runtimes): what ran the targets, its version and the command
// that started them. runtimes/ resolves and installs it; every stage reads it.

export {};

/** @typedef {'node' | 'bun' | 'deno'} RuntimeName */
/**
 * What the npm registry said of a runtime's release when it was installed (Deno, which has no release schedule):
 * published on that day, `latest` the newest release on `checked`.
 * @typedef {{ package: string, published: string, latest: string, checked: string }} RegistryRelease
 */
/**
 * A runtime ready to start targets: `command ...args <runtime flags> <entry file>` (see runtimeArgv).
 * @typedef {{ spec: string, name: RuntimeName, version: string, command: string, args: string[],
 *   registry?: RegistryRelease }} Runtime
 */
