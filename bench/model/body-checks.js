// @ts-check
// Small checks of an answer's body that scenarios build theirs from.

/** @param {string} body */
function parseJson(body) {
  try {
    return { value: JSON.parse(body) };
  } catch {
    return { error: `body is not JSON: ${JSON.stringify(body.slice(0, 80))}` };
  }
}

/**
 * @param {(value: any) => string | null} check
 * @returns {(body: string) => string | null}
 */
export function json(check) {
  return (body) => {
    const parsed = parseJson(body);
    return 'error' in parsed ? /** @type {string} */ (parsed.error) : check(parsed.value);
  };
}

/** @param {any} value @param {string[]} keys @param {string} what */
export function missingKeys(value, keys, what) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${what} is not an object`;
  const missing = keys.filter((key) => !(key in value));
  return missing.length ? `${what} has no ${missing.join(', ')}` : null;
}
