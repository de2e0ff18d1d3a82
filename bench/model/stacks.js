// @ts-check
// The app's stacks: what runs around its routes. `bare` is the app as `nest new` makes it; `production` adds the
// middleware a real API has (the app reads APP_STACK); an ablation variant is the production stack without one part
// (APP_STACK_OMIT). A target that lists no stacks runs bare only, as the raw servers do.

export const BARE = 'bare';
export const PRODUCTION = 'production';
/** The stacks --stack chooses from. */
export const STACK_NAMES = [BARE, PRODUCTION];
/** What APP_STACK_OMIT can take out of the production stack, in the app's order. */
export const PRODUCTION_PARTS = ['helmet', 'cors', 'compression', 'logger', 'request-id', 'serializer'];
const WITHOUT = `${PRODUCTION}-without-`;

/**
 * The production stack without one part: the variant --ablate measures beside it.
 * @param {string} part one of PRODUCTION_PARTS
 */
export function withoutPart(part) {
  return `${WITHOUT}${part}`;
}

/**
 * The part an ablation variant leaves out, or null for bare and production.
 * @param {string} stack
 */
export function omittedPart(stack) {
  return stack.startsWith(WITHOUT) ? stack.slice(WITHOUT.length) : null;
}

/**
 * The stack a variant belongs to: what a target must list to run it.
 * @param {string} stack
 */
export function baseStack(stack) {
  return omittedPart(stack) === null ? stack : PRODUCTION;
}

/**
 * What a server of this stack is started with. Every stack names itself, so that a server never falls back to what
 * its environment happens to say; the request log goes to a file in the run's directory, never the terminal.
 * @param {string} stack
 * @param {string} requestLogFile
 * @returns {Record<string, string>}
 */
export function stackEnv(stack, requestLogFile) {
  const part = omittedPart(stack);
  return {
    APP_STACK: baseStack(stack),
    APP_STACK_OMIT: part ?? '',
    ...(stack === BARE ? {} : { REQUEST_LOG_FILE: requestLogFile }),
  };
}

/**
 * The stack environment a target's server gets: none for a target that runs only as it is (a raw server, a user's
 * server), which has no APP_STACK to read.
 * @param {{ stacks: string[] }} target
 * @param {string} stack
 * @param {string} requestLogFile
 * @returns {Record<string, string>}
 */
export function targetStackEnv(target, stack, requestLogFile) {
  return target.stacks.length > 1 ? stackEnv(stack, requestLogFile) : {};
}

/**
 * Headers every request to this stack carries: production clients accept gzip, so the compression is exercised.
 * @param {string} stack
 * @returns {Record<string, string>}
 */
export function stackHeaders(stack) {
  return stack === BARE ? {} : { 'accept-encoding': 'gzip' };
}

/**
 * A server's name in logs, ports and the run's files: the target, and its stack unless bare.
 * @param {{ target: string, stack: string }} instance
 */
export function instanceName({ target, stack }) {
  return stack === BARE ? target : `${target}@${stack}`;
}
