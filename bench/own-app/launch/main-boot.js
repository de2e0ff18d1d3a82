// @ts-check
// --nest-main on Fastify before anything is measured: main booted once with FastifyAdapter in place, every call of
// main's that Fastify cannot take named at main's line (main-factory.js skips them), and each one made a finding of
// the scan's, so the report names them all, from one run, where the app's code has them.
import { isAbsolute, relative } from 'node:path';
import { APP_METHODS } from '../scan/app-differences.js';
import { runLauncher } from './launcher-run.js';

const BOOT_TIMEOUT_MS = 60_000;
/** A line of the launcher's stdout that holds a JSON object: its answer, after what main printed. */
const JSON_LINE = /^\{.*\}$/;

/**
 * The calls main made that Fastify cannot take, from one boot of main on Fastify (app.init(), no port); none when it
 * did not boot at all (the check that follows reports that boot failure, at main's line).
 * @param {import('./packages.js').NestApp} app
 * @returns {Promise<import('./main-factory.js').SkippedCall[]>}
 */
export async function fastifySkips(app) {
  const { code, stdout } = await runLauncher(app, 'fastify', { NEST_APP_BOOT_ONLY: '1' }, BOOT_TIMEOUT_MS);
  const answer = stdout.split('\n').findLast((line) => JSON_LINE.test(line.trim()));
  return code === 0 && answer ? JSON.parse(answer).skipped : [];
}

/**
 * Where a skipped call sits, as the scan names files: FILE from the app's root, and its line.
 * @param {import('./main-factory.js').SkippedCall} call @param {string} root
 * @returns {{ file: string, line: number } | null}
 */
function placeOf(call, root) {
  const match = call.at === null ? null : /^(.*):(\d+):\d+$/.exec(call.at);
  if (!match) return null;
  const inRoot = relative(root, match[1]);
  return { file: inRoot.startsWith('..') || isAbsolute(inRoot) ? match[1] : inRoot, line: Number(match[2]) };
}

/**
 * What a run on Fastify leaves out, as its log and report say it: "measured without src/main.ts:11".
 * @param {import('./main-factory.js').SkippedCall[]} skipped @param {string} root
 */
export function measuredWithout(skipped, root) {
  return skipped.map((call) => {
    const place = placeOf(call, root);
    return place ? `${place.file}:${place.line}` : call.call;
  });
}

/**
 * The scan's findings with each skipped call in them: the scan's own finding at that line says what Fastify threw and
 * that it was left out; a call the scan did not see is added, with the fix the scan would give it.
 * @param {import('../scan/scan.js').ScanRecord} scan
 * @param {import('./main-factory.js').SkippedCall[]} skipped
 * @returns {import('../scan/scan.js').ScanRecord}
 */
export function withSkippedCalls(scan, skipped) {
  if (skipped.length === 0) return scan;
  const root = scan.root ?? process.cwd();
  const findings = [...scan.findings];
  for (const call of skipped) {
    const place = placeOf(call, root) ?? { file: 'main', line: 0 };
    const seen = `${call.error} while booting on Fastify; skipped there: Fastify was measured without ${place.file}:${place.line}`;
    const at = findings.findIndex((f) => f.file === place.file && f.line === place.line);
    if (at !== -1) {
      findings[at] = { ...findings[at], onFastify: `${findings[at].onFastify} (${seen})` };
      continue;
    }
    const known = APP_METHODS[call.call.replace(/^(app|getInstance\(\))\./, '')];
    findings.push({
      rule: `${call.call}()`,
      kind: known?.kind ?? 'breaks',
      file: place.file,
      line: place.line,
      code: call.code ?? call.call,
      handler: null,
      onFastify: known ? `${known.onFastify} (${seen})` : seen,
      fix: known?.fix ?? 'Fastify’s own way of doing it: a FastifyAdapter option (--fastify-options) or a plugin',
    });
  }
  return { ...scan, findings };
}
