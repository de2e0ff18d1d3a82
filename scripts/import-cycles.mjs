// Import circles among a folder's modules (`node scripts/import-cycles.mjs bench`): each circle on a line and exit 1,
// or nothing and exit 0. Follows static imports, re-exports and dynamic import() of relative paths; a JSDoc type's
// import('…').Name is no import at run time and is not followed.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORTS = [
  /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]/gm,
  /^\s*import\s*['"](\.[^'"]+)['"]/gm,
  /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)(?!\s*\.)/g,
];

/** @param {string} dir @returns {string[]} */
function modulesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(path);
    return /\.m?js$/.test(entry.name) ? [resolve(path)] : [];
  });
}

/** @param {string} file */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => resolve(dirname(file), match[1])));
}

/**
 * The strongly connected components of more than one module, or of one importing itself (Tarjan).
 * @param {Map<string, string[]>} graph
 */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  /** @param {string} module */
  const visit = (module) => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const imported of graph.get(module) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        low.set(module, Math.min(low.get(module), low.get(imported)));
      } else if (onStack.has(imported)) low.set(module, Math.min(low.get(module), index.get(imported)));
    }
    if (low.get(module) !== index.get(module)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)?.includes(module)) found.push(component);
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

const root = process.argv[2] ?? 'bench';
const modules = modulesUnder(root);
const known = new Set(modules);
const graph = new Map(modules.map((file) => [file, importsOf(file).filter((imported) => known.has(imported))]));
const found = circles(graph);
for (const component of found) console.error(`import circle: ${component.map((m) => relative('.', m)).join(' <-> ')}`);
if (found.length) {
  console.error('move what the modules of a circle share into a module of its own that each imports');
  process.exitCode = 1;
}
