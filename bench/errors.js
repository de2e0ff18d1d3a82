// @ts-check

/** A mistake in what the user asked for: the CLI prints the message alone and exits with USAGE_EXIT_CODE. */
export class UsageError extends Error {
  name = 'UsageError';
}

export const USAGE_EXIT_CODE = 2;
