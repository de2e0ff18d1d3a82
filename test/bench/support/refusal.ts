// The one-line refusal a bad input ends in: a UsageError, whose message the CLI prints before exiting 2.
import { UsageError } from '../../../bench/errors.js';

/** The message of the UsageError `run` throws; fails the test when it throws nothing or something else. */
export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('it did not throw');
}

/** The message of the UsageError the promise `run` returns is rejected with. */
export async function asyncRefusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => new Error('it did not reject'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}
