import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import { resolveRuntimes } from '../../../bench/runtimes/runtimes.js';
import { parseRuntimeList } from '../../../bench/runtimes/runtime-specs.js';

/** A registry address nothing listens on: any npm call that reaches for the network fails. */
const UNREACHABLE_REGISTRY = 'http://127.0.0.1:9/';

/** The UsageError resolving `text` ends in. */
export async function resolveError(text: string, options: Parameters<typeof resolveRuntimes>[1]): Promise<UsageError> {
  const error = await resolveRuntimes(parseRuntimeList(text), options).then(
    () => new Error(`resolveRuntimes(${text}) did not throw`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

/** Runs `fn` with npm pointed at an unreachable registry, an empty npm cache and no retries, so any npm call fails fast. */
export async function withoutRegistry<T>(fn: () => Promise<T>): Promise<T> {
  const npmCache = mkdtempSync(path.join(tmpdir(), 'runtimes-npm-cache-'));
  const settings: Record<string, string> = {
    npm_config_registry: UNREACHABLE_REGISTRY,
    npm_config_cache: npmCache,
    npm_config_fetch_retries: '0',
  };
  const saved = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
  Object.assign(process.env, settings);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(npmCache, { recursive: true, force: true });
  }
}

/** The version a runtime binary reports, without the leading v. */
export function binaryVersion(command: string): string {
  return execFileSync(command, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
}
