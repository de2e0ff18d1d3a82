// @ts-check

/** A mistake in what the user asked for: the CLI prints the message alone and exits with USAGE_EXIT_CODE. */
export class UsageError extends Error {
  name = 'UsageError';
}

export const USAGE_EXIT_CODE = 2;

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
