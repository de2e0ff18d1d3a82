// @ts-check
// What switching an app from Express to Fastify costs, summed from the findings its check recorded
// (results.ownApp.findings): the rows ranked by reach, grouped where one fix serves many, counted by kind and by place
// to change; beside them what the switch buys (the ratio, the cores at --rate).
import { CHANGE_KINDS, KIND_ORDER } from '../model/finding-kinds.js';
import { EXPRESS_TARGET, FASTIFY_TARGET, TRAFFIC_SCENARIO } from '../model/own-app-record.js';

/**
 * @typedef {import('../model/finding-kinds.js').FindingKind} FindingKind
 * @typedef {import('../model/findings-record.js').SwitchFinding} SwitchFinding
 * @typedef {import('../model/findings-record.js').SharedReach} SharedReach
 * @typedef {import('../model/own-app-record.js').OwnAppRecord} OwnAppRecord
 */

/**
 * @typedef {object} SwitchingCost
 * @property {SwitchFinding[]} findings what asks for a change first, the widest reach first (a shared cause leads, its
 *   symptoms folded under it), then by kind, code first; information last
 * @property {Record<FindingKind, number>} byKind the rows of findings of each kind
 * @property {number} places distinct changes: each line of code, each route without code found, each probe's fix once
 *   (information rows, `works` and `ifRemoved`, are no change)
 * @property {string[]} brokenRoutes routes that answer differently to their own request
 * @property {Array<{ runtime: string, scenario: string | null, ratio: number, low: number | null, high: number | null,
 *   verdict: string | null, routes: number, atRate: import('./switch-at-rate.js').SwitchAtRate | null }>} gains per
 *   runtime: the traffic mix's ratio with its interval; without a mix (scenario null), the geometric mean of the
 *   routes' ratios with the lowest and highest route's; atRate: its cores at --rate, on the same scenario
 * @property {import('./switch-at-rate.js').SwitchAtRate[]} atRate
 * @property {string | null} scanSkipped
 */

/**
 * @param {OwnAppRecord | null | undefined} record results.ownApp
 * @param {import('./rows.js').RatioRow[]} ratios
 * @param {import('./switch-at-rate.js').SwitchAtRate[]} atRate
 * @returns {SwitchingCost | null} null for runs without --nest-app
 */
export function switchingCost(record, ratios, atRate) {
  if (!record) return null;
  const { rows, brokenRoutes } = recordedOf(record);
  const byPlace = (/** @type {SwitchFinding} */ a, /** @type {SwitchFinding} */ b) =>
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    sourceRank(a) - sourceRank(b) ||
    (a.route ?? '').localeCompare(b.route ?? '');
  // a grouped row keeps the first route's answers in this order; the rows are then ranked by reach
  const findings = grouped([...rows].sort(byPlace)).map((f) => ({
    ...f,
    reach: reachOf(f, record.routes.length),
  }));
  const sorted = [...findings].sort(
    (a, b) =>
      Number(CHANGE_KINDS.has(b.kind)) - Number(CHANGE_KINDS.has(a.kind)) ||
      (b.reach ?? 0) - (a.reach ?? 0) ||
      (b.shared?.named ?? 0) - (a.shared?.named ?? 0) ||
      byPlace(a, b),
  );
  const byKind = /** @type {Record<FindingKind, number>} */ (
    Object.fromEntries(KIND_ORDER.map((kind) => [kind, findings.filter((f) => f.kind === kind).length]))
  );
  const places = new Set(
    findings.filter((f) => CHANGE_KINDS.has(f.kind) && !f.place.startsWith('code of ')).map((f) => f.place),
  ).size;
  return {
    findings: sorted,
    byKind,
    places,
    brokenRoutes,
    gains: gainsOf(ratios, record.mix ?? TRAFFIC_SCENARIO).map((gain) => ({
      ...gain,
      atRate: atRate.find((r) => r.runtime === gain.runtime && r.scenario === (gain.scenario ?? r.scenario)) ?? null,
    })),
    atRate,
    scanSkipped: record.scan?.skipped ?? null,
  };
}

/**
 * The findings the check recorded; a record without them was read without the upgrade its readers owe it.
 * @param {OwnAppRecord} record @returns {import('../model/findings-record.js').RecordedFindings}
 */
function recordedOf(record) {
  if (!record.findings)
    throw new Error(
      'results.ownApp has no findings: results written before the check recorded them are read through withRecordedFindings (own-app/findings/switching.js)',
    );
  return record.findings;
}

/**
 * How many routes a finding touches (SwitchFinding.reach).
 * @param {SwitchFinding} finding @param {number} routes the app's
 */
function reachOf(finding, routes) {
  if (finding.shared) return finding.shared.routes;
  if (finding.onFastify.startsWith('Fastify does not boot')) return routes;
  if (finding.source === 'probe' && finding.route) return 1 + (finding.alsoOn?.length ?? 0);
  return finding.route ? 1 : 0;
}

/**
 * What the switch buys, per runtime: the traffic mix's ratio with its interval; without a mix, the geometric mean of
 * the routes' ratios with the lowest and highest route's.
 * @param {import('./rows.js').RatioRow[]} ratios @param {string} mixName
 * @returns {Array<Omit<SwitchingCost['gains'][number], 'atRate'>>}
 */
function gainsOf(ratios, mixName) {
  // only Fastify ÷ Express: a --baseline run judges the candidate against the base build instead, which no switch buys
  const judged = ratios.filter(
    (r) => r.judged && r.verdict !== 'too slow' && r.numerator === FASTIFY_TARGET && r.denominator === EXPRESS_TARGET,
  );
  return [...new Set(judged.map((r) => r.runtime))].map((runtime) => {
    const mix = judged.find((r) => r.runtime === runtime && r.scenario === mixName);
    if (mix)
      return {
        runtime,
        scenario: mix.scenario,
        ratio: mix.summary.median,
        low: mix.summary.ci?.low ?? null,
        high: mix.summary.ci?.high ?? null,
        verdict: mix.verdict,
        routes: 1,
      };
    const medians = judged.filter((r) => r.runtime === runtime).map((r) => r.summary.median);
    return {
      runtime,
      scenario: null,
      ratio: Math.exp(medians.reduce((sum, m) => sum + Math.log(m), 0) / medians.length),
      low: Math.min(...medians),
      high: Math.max(...medians),
      verdict: null,
      routes: medians.length,
    };
  });
}

/**
 * A probe that answered the same way on several routes (every path with a trailing slash a 404) is one row: the
 * first route's answers, the others named. An information row found in several places (the same type import in nine
 * files) is one row too, the other places named.
 * @param {SwitchFinding[]} findings @returns {SwitchFinding[]}
 */
function grouped(findings) {
  /** @type {Map<string, SwitchFinding>} */
  const groups = new Map();
  return findings.flatMap((finding) => {
    const probe = finding.source === 'probe' && finding.answers;
    const information = finding.source === 'code' && !CHANGE_KINDS.has(finding.kind);
    if (!probe && !information) return [finding];
    // one fix, one row: the first route's answers and statement, the other routes named
    const key = `${finding.source} ${finding.what} ${finding.kind} ${finding.fix}`;
    const first = groups.get(key);
    if (!first) {
      const row = { ...finding, alsoOn: [] };
      groups.set(key, row);
      return [row];
    }
    const other = probe ? finding.route : finding.where;
    if (other) /** @type {string[]} */ (first.alsoOn).push(other);
    return [];
  });
}

/** @param {SwitchFinding} finding code first, then the route's own request, then probes */
function sourceRank({ source }) {
  return source === 'code' ? 0 : source === 'request' ? 1 : 2;
}
