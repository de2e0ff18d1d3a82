// @ts-check
// `--runtime` text → runtime specs: which runtimes, which version ranges, and which load generators can measure them.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { UsageError } from '../errors.js';

/** @typedef {'node' | 'bun'} RuntimeName */
/**
 * A parsed `--runtime` item. `range` is the version text after `@` (`24`, `24.11`, `1.3.2`, read as npm reads
 * `node@24`), or null: the node running the bench for `node`, the newest release for `bun`.
 * @typedef {{ text: string, name: RuntimeName, range: string | null }} RuntimeSpec
 */

const SPEC_PATTERN = /^(node|bun)(?:@(\d+(?:\.\d+){0,2}))?$/;
const ACCEPTED_FORMS =
  'node (the node running the bench), node@<major>[.<minor>[.<patch>]], bun, bun@<major>[.<minor>[.<patch>]]';

/** The Node releases the app supports: package.json `engines.node`. */
const ENGINES_NODE = readEnginesNode();

function readEnginesNode() {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const range = pkg.engines?.node;
  if (!semver.validRange(range))
    throw new Error(`package.json engines.node must be a semver range, found ${JSON.stringify(range)}`);
  return range;
}

/**
 * Parses `--runtime` text such as `node@20,node@22,node@24,bun`.
 * @param {string} text
 * @returns {RuntimeSpec[]}
 * @throws {UsageError} naming the first bad item and the accepted forms
 */
export function parseRuntimeList(text) {
  const items = String(text)
    .split(',')
    .map((item) => item.trim());
  /** @type {RuntimeSpec[]} */
  const specs = [];
  for (const item of items) {
    const match = SPEC_PATTERN.exec(item);
    if (!match) {
      const shown = item === '' ? 'an empty item' : `"${item}"`;
      throw new UsageError(`--runtime: ${shown} is not a runtime; use ${ACCEPTED_FORMS}, comma-separated`);
    }
    const name = /** @type {RuntimeName} */ (match[1]);
    const range = match[2] ?? null;
    if (specs.some((spec) => spec.text === item))
      throw new UsageError(`--runtime: ${item} is listed twice; list each runtime once`);
    if (name === 'node' && range !== null && !semver.intersects(range, ENGINES_NODE)) {
      throw new UsageError(
        `--runtime: ${item} is older than the app supports (Node ${ENGINES_NODE}, package.json engines)`,
      );
    }
    specs.push({ text: item, name, range });
  }
  return specs;
}

/**
 * Whether a version (`24.11.1`) is one the spec asks for; a spec without a range takes any.
 * @param {RuntimeSpec} spec
 * @param {string} version
 */
export function specMatches(spec, version) {
  return spec.range === null || semver.satisfies(version, spec.range);
}

/**
 * Refuses a load generator whose numbers would be wrong under one of the runtimes, before anything is installed or run.
 * ab asks for keep-alive the HTTP/1.0 way (`Connection: keep-alive`); Bun answers those requests with `Connection: close`
 * (checked with Bun 1.4.5: 0 of 3000 `ab -k` requests kept alive, against 3000 of 3000 on Node), so ab would time a new
 * TCP connection per request under Bun and a reused one under Node.
 * @param {string} driver
 * @param {RuntimeSpec[]} specs
 * @throws {UsageError}
 */
export function assertDriverSupports(driver, specs) {
  const bun = specs.find((spec) => spec.name === 'bun');
  if (driver === 'ab' && bun) {
    throw new UsageError(
      `--driver ab cannot measure ${bun.text}: Bun closes HTTP/1.0 keep-alive connections, so ab -k would time a new connection per request; use --driver autocannon or wrk`,
    );
  }
}
