// @ts-check
// The app did not boot: on Fastify (a call only Express has, a plugin not installed, a route Fastify's router refuses)
// or on a runtime. The launcher's last stderr line names the error, the boot step and the first place in the app's code
// it passed through; this reads it back and names the fix.

/**
 * @typedef {import('../../model/own-app-record.js').BootFailure} BootFailure
 */

/** `Error: message (step at FILE:LINE:COL)`; a step may hold a call's parentheses: configure(app), app.init(). */
const LAUNCHER_LINE = /(\w*Error(?:\s\[\w+\])?: .*?) \(((?:[^()]|\(\w*\))+?)(?: at (\/\S+:\d+:\d+))?\)$/;

/** A package Nest or the app loads at boot that is not installed: its name is group 1 or 2. */
const MISSING_PACKAGE = /"(@?[\w./-]+)" package is missing|Cannot find (?:module|package) '(@?[\w.-]+(?:\/[\w.-]+)?)/;
/** main.ts is read by the scan, never run by the bench: a call in the setup module is the one that failed. */
const MAIN_FILE = /(^|\/)main\.[cm]?[jt]s$/;

/** Known errors and the change that fixes each; the first that matches wins. */
const FIXES = [
  {
    match: MISSING_PACKAGE,
    fix: (/** @type {RegExpMatchArray} */ m) => `install it in the app's folder: npm i ${m[1] ?? m[2]}`,
  },
  {
    match: /app\.enable is not a function|app\.set is not a function/,
    fix: () =>
      "app.enable and app.set are Express's (NestExpressApplication): for 'trust proxy' give Fastify's " +
      'trustProxy in the setup module (export const adapterOptions = { fastify: { trustProxy: true } }); else call ' +
      "them only when configure(app, { adapter }) is given adapter === 'express'",
  },
  {
    match: /(app\.\w+) is not a function/,
    fix: (/** @type {RegExpMatchArray} */ m) =>
      `${m[1]} is Express's (NestExpressApplication): call it only when configure(app, { adapter }) is given ` +
      "adapter === 'express', and Fastify's equivalent otherwise",
  },
  {
    // a plugin made for another Fastify major, often pinned by a package written for it (apollo-server-fastify 3)
    match: /fastify-plugin: (\S+) - expected '([^']+)' fastify version, '([^']+)' is installed/,
    fix: (/** @type {RegExpMatchArray} */ m) =>
      `${m[1]} is made for Fastify ${m[2]} and the app's Fastify is ${m[3]}: install the ${m[1]} made for it; where a ` +
      "package pins it (apollo-server-fastify 3 pins Fastify 3's @fastify/accepts and @fastify/cors), override it in " +
      'package.json ("overrides"), or move that package to a major made for this Fastify (@nestjs/apollo 11+ with ' +
      '@as-integrations/fastify)',
  },
  {
    match: /Method '(\w+)' already declared for route '([^']*)'/,
    fix: (/** @type {RegExpMatchArray} */ m) =>
      `two handlers answer ${m[1]} ${m[2]} (a controller's route and SwaggerModule.setup() or useStaticAssets() on ` +
      'the same path, or two controllers): Express answers with the first one registered and never reaches the ' +
      "other, Fastify's router refuses the second; give one of them another path, e.g. SwaggerModule.setup('docs', …)",
  },
  {
    match: /Wildcard must be the last character/,
    fix: () =>
      "Fastify's router takes a wildcard only at a path's end: a named wildcard such as @All('*path') (Express 5) " +
      "needs a plain '*' there",
  },
];

/** Fastify's router refuses a route path and names none of the app's routes: the scan finds them. */
const ROUTER_REFUSAL = /Wildcard must be the last character/;

/**
 * @param {{ adapter: string, error: string }} startFailure as the compatibility check recorded it
 * @param {string} runtime
 * @param {{ findings: import('../scan/scan.js').CodeFinding[] } | null} [scan] the app's scan: the routes Fastify refuses
 * @returns {BootFailure}
 */
export function bootFailure({ adapter, error }, runtime, scan = null) {
  const line = error.slice(error.indexOf(': ') + 2);
  const parsed = LAUNCHER_LINE.exec(line);
  const message = parsed ? parsed[1] : line;
  const known = FIXES.map((entry) => ({ entry, m: message.match(entry.match) })).find(({ m }) => m);
  const refused = ROUTER_REFUSAL.test(message)
    ? (scan?.findings ?? []).filter((f) => f.rule.startsWith('@') && ROUTER_REFUSAL.test(f.onFastify))
    : [];
  if (refused.length)
    return {
      adapter: 'fastify',
      runtime,
      error: message,
      step: parsed?.[2] ?? null,
      at: `${refused[0].file}:${refused[0].line}`,
      fix: refused.map((f) => `${f.rule} in ${f.handler ?? f.file}: ${f.fix}`).join('; '),
    };
  const inMain = parsed?.[2]?.endsWith(' in main') && parsed[3] ? mainsCall(parsed[3], scan) : null;
  if (parsed && inMain !== null)
    return {
      adapter: 'fastify',
      runtime,
      error: message,
      step: parsed[2],
      at: parsed[3],
      fix: `${inMain ? `${inMain.fix}; ` : ''}without --strict the bench skips this call on Fastify and measures the rest`,
    };
  const needing = callsNeeding(message, scan);
  if (needing)
    return {
      adapter: 'fastify',
      runtime,
      error: message,
      step: parsed?.[2] ?? null,
      at: parsed?.[3] ?? `${needing.file}:${needing.line}`,
      fix: `${needing.rule} at ${needing.file}:${needing.line} needs it: ${needing.fix}`,
    };
  return {
    adapter: adapter === 'fastify' ? 'fastify' : 'express',
    runtime,
    error: message,
    step: parsed?.[2] ?? null,
    at: parsed?.[3] ?? null,
    fix: known
      ? known.entry.fix(/** @type {RegExpMatchArray} */ (known.m))
      : "configure(app, { adapter }) is given the adapter's name: make the failing call Express-only, or give Fastify's equivalent",
  };
}

/**
 * --nest-main --strict stopped Fastify's boot at a call of main's (main-factory.js): the scan's finding at that line,
 * whose fix is the one to make; undefined where the scan has none.
 * @param {string} at FILE:LINE:COLUMN as the launcher named it
 * @param {{ findings: import('../scan/scan.js').CodeFinding[] } | null} scan
 */
function mainsCall(at, scan) {
  const [, file, line] = /^(.*):(\d+):\d+$/.exec(at) ?? [];
  return (scan?.findings ?? []).find(
    (f) => f.line === Number(line) && (file === f.file || file?.endsWith(`/${f.file}`)),
  );
}

/**
 * The call the scan found that loads a package Nest said is missing (SwaggerModule.setup or useStaticAssets for
 * @fastify/static, an Apollo driver for @as-integrations/fastify): Nest's message names useStaticAssets() whatever
 * called it. The setup module's call before main.ts's, which the bench does not run.
 * @param {string} message @param {{ findings: import('../scan/scan.js').CodeFinding[] } | null} scan
 * @returns {import('../scan/scan.js').CodeFinding | null}
 */
function callsNeeding(message, scan) {
  const missing = message.match(MISSING_PACKAGE);
  if (!missing) return null;
  const install = `npm i ${missing[1] ?? missing[2]}`;
  const calls = (scan?.findings ?? []).filter((f) => /does not boot/.test(f.onFastify) && f.fix.includes(install));
  return calls.find((f) => !MAIN_FILE.test(f.file)) ?? calls[0] ?? null;
}
