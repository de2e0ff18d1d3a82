// The map of ../shared/STYLE.md §8 as a rule (`node scripts/layers.mjs`): which folder of bench/ may import which, JSDoc
// import('…') types included, whether report/ reads a raw record or selects rows by runtime and scenario, and how long
// a module may be. Each breach is a line and exit 1, with no exception.
// `--reach FILE...`: every module of bench/ those files reach through their imports (types included), counted by
// folder, the others named.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const BENCH = resolve('bench');

/** What a folder may import besides itself; a folder named in neither list may import any. */
const MAY_IMPORT = {
  model: ['maths', 'errors.js'],
  analysis: ['model', 'maths', 'errors.js'],
  report: ['model', 'maths', 'analysis', 'errors.js'],
};
/** What the loop may not import: it records, and the stages after it read the record. */
const MAY_NOT_IMPORT = { run: ['analysis', 'report'] };

/**
 * report/ renders the Analysis and reads no raw record (issue 53 §3): a module of report/ that names the record's own
 * shapes (`Results`, `OwnAppRecord`, `PackagesRecord`, `NestBenchmarkRow`) or reads what an Analysis would pass
 * through unchanged (a `.record`, as `analysis.ownApp.record` was) is refused, with no exception.
 */
const RAW_RECORD = /\.record\b|\b(?:Results|OwnAppRecord|PackagesRecord|NestBenchmarkRow)\b/;
/**
 * report/ selects no rows by runtime and scenario itself (issue 53 §3): a `find`, `filter`, `some` or `every` whose
 * callback compares a `.runtime` or `.scenario`, or a `runtime` or `scenario` it destructures, is refused, with no
 * exception; analysis/ hands the rows grouped as the report reads them (analysis/runtime-rows.js, the load curve's
 * `curves`). analysis/block-rows.js's finders are analysis' own and not counted.
 */
const ROW_SELECTION =
  /\.(?:find|filter|some|every|findIndex)\(\s*(?:\(?\s*\w+\s*\)?\s*=>[\s\S]{0,200}?\.(?:runtime|scenario)|\(\s*\{[^}]*\b(?:runtime|scenario)\b[^}]*\}\s*\)\s*=>[\s\S]{0,200}?\b(?:runtime|scenario))\s*===/g;

/** Lines a module may have: ../shared/STYLE.md §8; own-app/ is cut at its seams sooner (issue 53). */
const MAX_LINES = 500;
const MAX_OWN_APP_LINES = 400;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** @param {string} dir @returns {string[]} */
function modulesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });
}

/** bench/model/x.js → model; bench/errors.js → errors.js @param {string} file */
const placeOf = (file) => relative(BENCH, file).split('/')[0];

/** The modules of bench/ a file imports, JSDoc types included. @param {string} file @param {string} text */
const importsOf = (file, text) =>
  [...text.matchAll(IMPORT)]
    .map((match) => resolve(dirname(file), match[1]))
    .filter((path) => path.startsWith(BENCH + '/'));

/**
 * Prints how many modules of each folder the files reach, and each import by which the walk left model/, analysis/,
 * report/ and maths/ (what report/ reads should stay inside them). @param {string[]} files
 */
function printReach(files) {
  const inside = ['model', 'analysis', 'report', 'maths', 'errors.js'];
  const reached = new Set();
  const doors = new Set();
  const queue = files.map((file) => resolve(file));
  while (queue.length) {
    const file = /** @type {string} */ (queue.shift());
    if (reached.has(file)) continue;
    reached.add(file);
    for (const imported of importsOf(file, readFileSync(file, 'utf8'))) {
      if (inside.includes(placeOf(file)) && !inside.includes(placeOf(imported)))
        doors.add(`${relative(BENCH, file)} -> ${relative(BENCH, imported)}`);
      queue.push(imported);
    }
  }
  /** @type {Record<string, number>} */
  const counts = {};
  for (const module of reached) counts[placeOf(module)] = (counts[placeOf(module)] ?? 0) + 1;
  console.log(
    Object.entries(counts)
      .map(([place, count]) => `${place} ${count}`)
      .join(', '),
  );
  for (const door of [...doors].sort()) console.log(`leaves through ${door}`);
}

const breaches = [];
if (process.argv[2] === '--reach') {
  printReach(process.argv.slice(3));
  process.exit();
}
for (const file of modulesUnder(BENCH)) {
  const name = relative(BENCH, file);
  const text = readFileSync(file, 'utf8');
  const allowed = MAY_IMPORT[placeOf(file)];
  const refused = MAY_NOT_IMPORT[placeOf(file)];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const limit = name.startsWith('own-app/') ? MAX_OWN_APP_LINES : MAX_LINES;
  if (lines > limit) breaches.push(`bench/${name}: ${lines} lines, over ${limit}: split it at a seam`);
  if (placeOf(file) === 'report' && RAW_RECORD.test(text))
    breaches.push(
      `bench/${name} reads the raw record (${RAW_RECORD.exec(text)?.[0]}): report/ renders the Analysis only; give the Analysis the row or fact it needs (../shared/STYLE.md §8)`,
    );
  const selections = placeOf(file) === 'report' ? (text.match(ROW_SELECTION) ?? []).length : 0;
  if (selections)
    breaches.push(
      `bench/${name} selects rows by runtime or scenario ${selections} times: give the Analysis the rows as the report reads them (../shared/STYLE.md §8)`,
    );
  if (!allowed && !refused) continue;
  const targets = new Set();
  for (const imported of importsOf(file, text)) {
    const place = placeOf(imported);
    if (place === placeOf(file)) continue;
    if (allowed ? !allowed.includes(place) : refused.includes(place)) targets.add(place);
  }
  for (const place of targets) {
    breaches.push(
      `bench/${name} imports ${place}/: ${placeOf(file)}/ ${allowed ? `may import ${allowed.join(', ')} only` : `may not import ${refused.join(' or ')}`} (../shared/STYLE.md §8); move what both need to bench/model/ or bench/maths/`,
    );
  }
}
for (const breach of breaches) console.error(breach);
if (breaches.length) process.exitCode = 1;
