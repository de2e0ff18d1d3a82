// @ts-check
import { parseArgs } from 'node:util';

/** A mistake in what the user asked for: the CLI prints the message alone and exits with USAGE_EXIT_CODE. */
export class UsageError extends Error {
  name = 'UsageError';
}

export const USAGE_EXIT_CODE = 2;
/** --fail-if-slower's exit when the gate finds a slower row, apart from the bench's own 0–3. */
export const SLOWER_EXIT_CODE = 4;

/**
 * Run a CLI's main function: a UsageError becomes its one-line message and USAGE_EXIT_CODE, anything else its stack
 * and exit code 1.
 * @param {() => Promise<void>} main
 */
export function runCli(main) {
  main().catch((error) => {
    console.error(error instanceof UsageError ? error.message : error);
    process.exitCode = error instanceof UsageError ? USAGE_EXIT_CODE : 1;
  });
}

/**
 * node:util's parseArgs, its complaints (an unknown flag, a missing value) turned into a UsageError.
 * @template {import('node:util').ParseArgsConfig} T
 * @param {T} config
 * @returns {ReturnType<typeof parseArgs<T>>}
 */
export function parseArgsOrRefuse(config) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The line of a stderr tail that says what went wrong: for an uncaught exception that is the "...Error: ..." line,
 * not node's closing "Node.js v20.x" or the stack frames below it.
 * @param {string} text
 */
export function errorLine(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Node\.js v\d/.test(l) && !l.startsWith('at '));
  const error = lines.findLast((l) => /^(\w*Error|\[\w*Error)\b/.test(l));
  return error ?? lines[lines.length - 1] ?? '(no stderr output)';
}
