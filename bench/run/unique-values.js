// @ts-check
// Values unique per request: a derived body marks where a write would collide (an email, a username, a title that
// becomes a slug) with UNIQUE_PLACEHOLDER, and whatever sends it (verification, the open-loop generator, autocannon,
// wrk.lua) puts a fresh value there on every request.
import { randomBytes } from 'node:crypto';

export const UNIQUE_PLACEHOLDER = '{{unique}}';
/**
 * The longest value a placeholder becomes in a run of under 36^6 requests: a 6-character run tag and a base-36 count
 * (wrk.lua adds its thread's number). Derived strings keep this much room under a maxLength.
 */
export const UNIQUE_VALUE_LENGTH = 14;
const TAG_BYTES = 4;
const TAG_LENGTH = 6;
/** The shortest value a placeholder becomes: the tag and one digit. */
export const SHORTEST_UNIQUE_VALUE = TAG_LENGTH + 1;

/** Letters and digits only, so a value fits an email's local part, a username and a slug alike. */
export function runTag() {
  return BigInt(`0x${randomBytes(TAG_BYTES).toString('hex')}`)
    .toString(36)
    .padStart(TAG_LENGTH, '0')
    .slice(-TAG_LENGTH);
}

/**
 * A function that fills every placeholder of a body with the next unique value of this run; a body without one is
 * returned as it is.
 * @param {string} [tag] one per run, so two runs against the same database never send the same value
 * @returns {(body: string | undefined) => string | undefined}
 */
export function uniqueFiller(tag = runTag()) {
  let count = 0;
  return (body) =>
    body === undefined || !body.includes(UNIQUE_PLACEHOLDER)
      ? body
      : body.replaceAll(UNIQUE_PLACEHOLDER, () => `${tag}${(count++).toString(36)}`);
}

/** @param {string | undefined} body */
export function hasUniqueValues(body) {
  return body !== undefined && body.includes(UNIQUE_PLACEHOLDER);
}
