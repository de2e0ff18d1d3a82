// @ts-check
// The switching section of a --nest-app run: what a switch costs (findings by kind, places to change) beside what it
// buys (the ratio, the cores saved at --rate), then every finding with its route, place, both answers and fix.
import { KIND_ORDER, KIND_WORDS } from '../model/finding-kinds.js';
import { DASH, formatInterval, formatNumber, formatPercent } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { code, strong } from './rich-table.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/switching-cost.js').SwitchingCost} SwitchingCost */

/** An answer's body in a cell: enough to see a lost field or an error's message. */
const ANSWER_CHARS = 140;
/** A shared cause's symptoms named in its row; the rest are counted. */
const SYMPTOMS_SHOWN = 6;

/**
 * @param {SwitchingCost} cost
 * @param {Record<string, string>} labels runtime keys with their release status
 * @returns {Table}
 */
export function switchingSummaryTable(cost, labels) {
  const rate = cost.atRate[0]?.rps ?? null;
  const counts = KIND_ORDER.map((kind) => formatNumber(cost.byKind[kind]));
  const rows = cost.gains.length
    ? cost.gains.map((gain) => {
        const range = `${gain.low === null ? DASH : formatBandedRatio(gain.low)} – ${gain.high === null ? DASH : formatBandedRatio(gain.high)}`;
        return [
          labels[gain.runtime] ?? gain.runtime,
          gain.scenario === null
            ? `${formatBandedRatio(gain.ratio)} over ${gain.routes} routes (${range} by route)`
            : [strong(gain.scenario), ` ${formatBandedRatio(gain.ratio)} (${range}), `, strong(gain.verdict ?? DASH)],
          gain.atRate ? coresSaved(gain.atRate) : DASH,
          ...counts,
          strong(formatNumber(cost.places)),
        ];
      })
    : [[DASH, 'no route measured', DASH, ...counts, strong(formatNumber(cost.places))]];
  return {
    title: 'What switching costs',
    intro:
      'Read across: switch, at this cost, for this gain. Findings come from three places: the scan of your code ' +
      '(each line only Express understands), each route’s own request (a file, where its handler takes one), and ' +
      'probes on both adapters beyond it (trailing slash, capitals, a JSON body over Express’s 100 KB limit, a form, ' +
      'HEAD, OPTIONS, cookies). ' +
      'Places to change: each line of code found, each route that differs without code found in its handler, and each ' +
      'probe’s fix once (one adapter option or plugin fixes it on every route); what works on Fastify and what matters ' +
      'only once the Express platform is removed are information, not places. Fastify ÷ Express: req/s on your ' +
      'traffic mix with its 95 % interval and verdict; without a --traffic log, the geometric mean over the measured ' +
      `routes and the lowest and highest route (the verdict table has each). Cores saved: Express’s cores at --rate less Fastify’s, with the share saved per request and its interval.${cost.scanSkipped ? ` The code was not scanned: ${cost.scanSkipped}.` : ''}`,
    headers: [
      'runtime',
      'Fastify ÷ Express',
      rate === null ? 'cores saved (give --rate)' : `cores saved at ${formatNumber(rate)} req/s`,
      ...KIND_ORDER.map((kind) => KIND_WORDS[kind]),
      'places to change',
    ],
    align: ['left', 'left', 'right', ...KIND_ORDER.map(() => /** @type {const} */ ('right')), 'right'],
    rows,
  };
}

/** @param {import('../analysis/switch-at-rate.js').SwitchAtRate} row */
function coresSaved(row) {
  const { express, fastify, saving } = row;
  if (!express.cores || !fastify.cores) return DASH;
  const cores = express.cores.median - fastify.cores.median;
  return `${formatNumber(cores, 3)} (${saving ? `${formatPercent(saving.median)}, ${formatInterval(saving.ci, (v) => formatPercent(v))}` : DASH})`;
}

/**
 * @param {SwitchingCost} cost
 * @returns {Table}
 */
export function switchingFindingsTable(cost) {
  return {
    title: 'What to change for Fastify',
    intro:
      'Every finding; what asks for a change first, the widest reach first: a cause many routes share (a global ' +
      'filter, guard, interceptor or middleware) is one row with the number of routes it reaches, and the answers it ' +
      'explains are folded under it, not rows of their own. The kinds: breaks (an error or a lost value on Fastify), behaves differently (it runs ' +
      'with another answer), needs a plugin (a Fastify plugin does the job), works (information: it works on Fastify, ' +
      'with the Fastify-native way), only if you remove the Express platform (types and imports that run nothing on ' +
      'Fastify). Each probe’s statement is read from both recorded answers. Found: the file and line the scan found ' +
      'with the code (the TypeScript source where a source map led to it), or the probe and the request that showed ' +
      'it. The answers are each adapter’s status, media type and the start of its body.',
    headers: ['kind', 'route', 'found', 'on Fastify', 'fix', 'Express answered', 'Fastify answered'],
    align: ['left', 'left', 'left', 'left', 'left', 'left', 'left'],
    rows: cost.findings.map((f) => [
      KIND_WORDS[f.kind],
      f.shared ? sharedReach(f.shared) : f.route ? [code(f.route), ...(f.source === 'probe' ? alsoOn(f) : [])] : DASH,
      f.where
        ? [code(f.where), ': ', code(f.code ?? ''), ...(f.source === 'code' ? alsoOn(f) : [])]
        : [f.what, ': ', code(f.request ?? '')],
      f.shared?.symptoms.length ? [f.onFastify, '. ', ...symptoms(f.shared.symptoms)] : f.onFastify,
      f.fix,
      f.answers ? answerCell(f.answers.express) : DASH,
      f.answers ? answerCell(f.answers.fastify) : DASH,
    ]),
  };
}

/** A shared cause's route cell: how many routes it reaches, and where it is registered for them. */
function sharedReach(/** @type {import('../model/findings-record.js').SharedReach} */ shared) {
  return [
    strong(`${formatNumber(shared.routes)} ${shared.routes === 1 ? 'route' : 'routes'}`),
    ` (a ${shared.role} registered at `,
    code(shared.registered),
    ')',
  ];
}

/**
 * The answers a shared cause explains: the routes' own requests each, then each probe once with how many routes it
 * showed on; then the lines of code that work once it is fixed (a read of the cookies cookie-parser set).
 * @param {import('../model/findings-record.js').SharedSymptom[]} list
 */
function symptoms(list) {
  const lines = list.filter((s) => s.source === 'code');
  const inCode = lines.length
    ? [
        `${lines.length === list.length ? 'The' : '; the'} code that works once it is fixed: `,
        ...lines.flatMap((s, i) => [...(i ? ['; '] : []), code(s.what), ' at ', code(s.where ?? '')]),
      ]
    : [];
  const answers = list.filter((s) => s.source !== 'code');
  if (answers.length === 0) return inCode;
  const own = answers.filter((s) => s.source === 'request');
  const probes = [...new Set(answers.filter((s) => s.source === 'probe').map((s) => s.what))].map((what) => {
    const shown = answers.filter((s) => s.source === 'probe' && s.what === what);
    const statuses = [...new Set(shown.map((s) => `${s.express ?? 'none'} → ${s.fastify ?? 'none'}`))].join(', ');
    return [`${what} on ${formatNumber(shown.length)} ${shown.length === 1 ? 'route' : 'routes'} (${statuses})`];
  });
  const named = own
    .slice(0, SYMPTOMS_SHOWN)
    .map((s) => [code(s.request ?? s.route ?? s.what), ` ${s.express ?? 'none'} → ${s.fastify ?? 'none'}`]);
  const more = own.length - named.length;
  const parts = [...named, ...(more > 0 ? [[`${formatNumber(more)} more requests`]] : []), ...probes];
  return [
    `Seen in ${formatNumber(answers.length)} ${answers.length === 1 ? 'answer' : 'answers'}: `,
    ...parts.flatMap((part, i) => [...(i ? ['; '] : []), ...part]),
    ...inCode,
  ];
}

/** The other routes or places a grouped row stands for. @param {import('../model/findings-record.js').SwitchFinding} f */
function alsoOn(f) {
  return f.alsoOn?.length ? [` and ${f.alsoOn.length} more: `, f.alsoOn.join(', ')] : [];
}

/** @param {import('../model/own-app-record.js').AdapterAnswer} answer */
function answerCell(answer) {
  const body = answer.body ?? '';
  const shown = body.length > ANSWER_CHARS ? `${body.slice(0, ANSWER_CHARS)}…` : body;
  const cookies = answer.setCookies?.length ? `; set-cookie ${answer.setCookies.join(', ')}` : '';
  return [
    `${answer.status ?? 'none'}${answer.contentType ? ` ${answer.contentType}` : ''}${cookies}`,
    ...(shown ? [': ', code(shown)] : []),
  ];
}
