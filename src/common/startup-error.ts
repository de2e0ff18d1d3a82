/**
 * A reason the app cannot start that the user can fix: bootstrap prints its
 * message as one line, without a stack trace, and exits non-zero.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
