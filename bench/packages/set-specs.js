// @ts-check
// `--packages` text → package set specs, and the cells a run measures: each set under each runtime, or under the one
// runtime an item names (`nest@7/node@12`). Aliases (eras, split) become cells here, once.
import { UsageError } from '../errors.js';
import { parseRuntimeList } from '../runtimes/runtime-specs.js';

/** @typedef {import('../model/package-sets-record.js').SetKind} SetKind */
/**
 * A parsed `--packages` item: `nest@10` (that major's newest @nestjs/* with the Express and Fastify they bring),
 * `nest@10.4.9`, `express@4.21.2`, `fastify@4` (the bare framework alone). `range` reads as npm reads `pkg@range`.
 * @typedef {{ text: string, kind: SetKind, range: string }} SetSpec
 */
/**
 * One runtime × package set of a run; `alias` is the item it came from when an alias made it.
 * @typedef {{ set: SetSpec, runtime: import('../runtimes/runtime-specs.js').RuntimeSpec, alias?: string }} CellSpec
 */

/** Every set checks the runtime against its own packages' engines once installed (sets.js), not the app's. */
const ANY_NODE = '*';
const ITEM_PATTERN = /^(nest|express|fastify)@(\d+(?:\.\d+){0,2})(?:\/(node@\d+(?:\.\d+){0,2}))?$/;
const ACCEPTED_FORMS =
  'nest@<major>[.<minor>[.<patch>]], express@<version>, fastify@<version>, each optionally /node@<version> to run ' +
  'it on that runtime alone, or the aliases eras and split';

/**
 * Each Nest major on the Node line that was current, or the newest LTS, when it was: the claim in its own time, from
 * its first appearance in the docs (2018-04-17, with Nest 5, Node 8 the LTS line) on. Nest 6 (2019-03) on Node 10,
 * 7 (2020-01) on 12, 8 (2021-07) on 14, 9 (2022-07) on 16, 10 (2023-06) on 18, 11 (2025-01) on 22, 12 on 24.
 */
export const ERA_ITEMS = Object.freeze([
  'nest@5/node@8',
  'nest@6/node@10',
  'nest@7/node@12',
  'nest@8/node@14',
  'nest@9/node@16',
  'nest@10/node@18',
  'nest@11/node@22',
  'nest@12/node@24',
]);
/** Packages against runtime, two by two: Nest 10 (Express 4, Fastify 4) and Nest 12 (Express 5, Fastify 5) on Node 22 and 24. */
export const SPLIT_ITEMS = Object.freeze(['nest@10/node@22', 'nest@12/node@22', 'nest@10/node@24', 'nest@12/node@24']);
const ALIASES = /** @type {Record<string, readonly string[]>} */ ({ eras: ERA_ITEMS, split: SPLIT_ITEMS });

/**
 * The cells of a run: every set under every runtime of `runtimes` (the default runtime when null), except that an item
 * naming its runtime runs there alone.
 * @param {string} text --packages
 * @param {import('../runtimes/runtime-specs.js').RuntimeSpec[]} runtimes the specs of --runtime, or of the default
 * @param {{ runtimeGiven: boolean, date: string }} context whether --runtime was given; the run's date
 * @returns {CellSpec[]}
 * @throws {UsageError} naming the first bad item
 */
export function planCells(text, runtimes, { runtimeGiven, date }) {
  /** @type {CellSpec[]} */
  const cells = [];
  for (const item of String(text)
    .split(',')
    .map((part) => part.trim())) {
    const alias = ALIASES[item];
    const made = alias ? alias.flatMap((one) => itemCells(one, item)) : itemCells(item, null);
    for (const cell of made) {
      const key = cellText(cell);
      const same = cells.find((other) => cellText(other) === key);
      if (same && !same.alias && !cell.alias) throw new UsageError(`--packages: ${key} is listed twice; list it once`);
      if (!same) cells.push(cell);
    }
  }
  return cells;

  /** @param {string} item @param {string | null} alias @returns {CellSpec[]} */
  function itemCells(item, alias) {
    const match = ITEM_PATTERN.exec(item);
    if (!match) {
      const shown = item === '' ? 'an empty item' : `"${item}"`;
      throw new UsageError(`--packages: ${shown} is not a package set; use ${ACCEPTED_FORMS}, comma-separated`);
    }
    if (match[3] && runtimeGiven)
      throw new UsageError(
        `--packages: ${alias ?? item} names the runtime of ${alias ? 'each set' : 'its set'}; drop --runtime or ${alias ? 'list the sets' : 'the /node@ part'}`,
      );
    const set = { text: `${match[1]}@${match[2]}`, kind: /** @type {SetKind} */ (match[1]), range: match[2] };
    const on = match[3] ? parseRuntimeList(match[3], date, ANY_NODE) : runtimes;
    return on.map((runtime) => (alias ? { set, runtime, alias } : { set, runtime }));
  }
}

/** `nest@10 on node@22`: how a cell is named in messages. @param {CellSpec} cell */
export function cellText(cell) {
  return `${cell.set.text} on ${cell.runtime.text}`;
}
