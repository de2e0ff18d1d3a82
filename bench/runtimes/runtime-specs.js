// @ts-check
// `--runtime` text → runtime specs: which runtimes, which version ranges, and which load generators can measure them.
// Aliases (lts, supported, node@A..B) become specs here, once, from Node's release schedule on the run's date.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { UsageError } from '../errors.js';
import { lineStart, ltsLine, releaseStatus, supportedLines } from '../model/release-status.js';

/** @typedef {import('../model/runtime.js').RuntimeName} RuntimeName */
/**
 * A parsed `--runtime` item. `range` is the version text after `@` (`24`, `24.11`, `1.3.2`, read as npm reads
 * `node@24`), or null: the node running the bench for `node`, the newest release for `bun` and `deno`. `alias`: the item it was
 * expanded from (`lts`, `supported`, `node@22..26`), absent when given as is.
 * @typedef {{ text: string, name: RuntimeName, range: string | null, alias?: string }} RuntimeSpec
 */

/**
 * The runtimes of a run and why: --runtime as given, or the default the bench chose.
 * @typedef {object} RuntimePlan
 * @property {RuntimeSpec[]} specs
 * @property {string | null} requested the --runtime text; null: the default
 * @property {{ version: string, status: string } | null} replaced the running node, when the default measures the
 *   LTS line instead because it is end of life
 */

const SPEC_PATTERN = /^(node|bun|deno)(?:@(\d+(?:\.\d+){0,2}))?$/;
const RANGE_PATTERN = /^node@(\d+)\.\.(\d+)$/;
const ACCEPTED_FORMS =
  'node (the node running the bench), node@<major>[.<minor>[.<patch>]], node@<major>..<major>, lts, supported, bun, ' +
  'bun@<major>[.<minor>[.<patch>]], deno, deno@<major>[.<minor>[.<patch>]]';

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
 * The runtimes to measure. Without --runtime: the node running the bench, unless its line is end of life on `date`
 * and the run is not of the user's own app (which runs on the user's node, whatever its status); then the LTS line,
 * installed from npm.
 * @param {string | null} text --runtime, or null
 * @param {{ date: string, runningNode?: string, usersApp?: boolean }} context the run's date; the running node's
 *   version; usersApp: --nest-app
 * @returns {RuntimePlan}
 */
export function planRuntimes(text, { date, runningNode = process.versions.node, usersApp = false }) {
  if (text !== null) return { specs: parseRuntimeList(text, date), requested: text, replaced: null };
  const status = releaseStatus({ name: 'node', version: runningNode }, date);
  if (usersApp || status.phase !== 'end of life')
    return { specs: [{ text: 'node', name: 'node', range: null }], requested: null, replaced: null };
  const major = String(ltsLine(date));
  return {
    specs: [{ text: `node@${major}`, name: 'node', range: major, alias: 'lts' }],
    requested: null,
    replaced: { version: runningNode, status: status.text },
  };
}

/**
 * Parses `--runtime` text such as `node@22,node@24,bun`, `supported,bun` or `node@22..26`, aliases expanded on `date`.
 * @param {string} text
 * @param {string} [date] the run's date, which decides what `lts` and `supported` are (default: now)
 * @param {string} [engines] the Node releases what runs under them supports: the app's (package.json engines) unless
 *   package sets bring their own (bench/packages/), which check the runtimes themselves
 * @returns {RuntimeSpec[]}
 * @throws {UsageError} naming the first bad item and the accepted forms
 */
export function parseRuntimeList(text, date = new Date().toISOString(), engines = ENGINES_NODE) {
  const items = String(text)
    .split(',')
    .map((item) => item.trim());
  /** @type {RuntimeSpec[]} */
  const specs = [];
  for (const item of items) {
    for (const spec of expandItem(item, date, engines)) {
      const same = specs.find((other) => other.text === spec.text);
      if (same) {
        const from = [same.alias, spec.alias].filter(Boolean).map((alias) => `${alias} includes it`);
        throw new UsageError(
          `--runtime: ${spec.text} is listed twice${from.length ? ` (${from.join(', ')})` : ''}; list each runtime once`,
        );
      }
      specs.push(spec);
    }
  }
  return specs;
}

/**
 * One --runtime item as the specs it stands for.
 * @param {string} item @param {string} date @param {string} engines
 * @returns {RuntimeSpec[]}
 */
function expandItem(item, date, engines) {
  if (item === 'lts') return [nodeLine(ltsLine(date), item, date, engines)];
  if (item === 'supported') return supportedLines(date).map((major) => nodeLine(major, item, date, engines));
  const range = RANGE_PATTERN.exec(item);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (from > to) throw new UsageError(`--runtime: ${item} runs backwards; write the older major first`);
    return Array.from({ length: to - from + 1 }, (_, i) => nodeLine(from + i, item, date, engines));
  }
  const match = SPEC_PATTERN.exec(item);
  if (!match) {
    const shown = item === '' ? 'an empty item' : `"${item}"`;
    throw new UsageError(`--runtime: ${shown} is not a runtime; use ${ACCEPTED_FORMS}, comma-separated`);
  }
  const name = /** @type {RuntimeName} */ (match[1]);
  const spec = { text: item, name, range: match[2] ?? null };
  if (name === 'node' && spec.range !== null) assertAppSupports(item, spec.range, engines);
  return [spec];
}

/**
 * A Node release line as a spec: its newest release on npm.
 * @param {number} major @param {string} alias the item it came from @param {string} date @param {string} engines
 * @returns {RuntimeSpec}
 */
function nodeLine(major, alias, date, engines) {
  const text = `node@${major}`;
  assertAppSupports(alias === text ? text : `${text} (from ${alias})`, String(major), engines);
  const start = lineStart(major);
  if (start !== null && start > date.slice(0, 10))
    throw new UsageError(`--runtime: ${text} (from ${alias}) is not released until ${start}`);
  return { text, name: 'node', range: String(major), alias };
}

/** @param {string} shown the item as named in the message @param {string} range @param {string} engines */
function assertAppSupports(shown, range, engines) {
  if (!semver.intersects(range, engines))
    throw new UsageError(`--runtime: ${shown} is older than the app supports (Node ${engines}, package.json engines)`);
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
