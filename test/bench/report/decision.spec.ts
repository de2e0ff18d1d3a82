import { analyze } from '../support/analyze-read.js';
import { decisionSentences } from '../../../bench/report/decision.js';
import { markdownText } from '../../../bench/report/rich-table.js';
import type { ServerEnd } from '../../../bench/model/own-app-record.js';
import { answerOf, ownAppRecord, routeCompatibility } from '../support/own-app-record.js';
import { BODY_PARSER_IN_APP_USE } from '../../../bench/own-app/scan/app-differences.js';
import { results } from '../support/synthetic-results.js';

const end = (scenario: string, extra: Partial<ServerEnd> = {}): ServerEnd => ({
  adapter: 'fastify',
  scenario,
  request: 'POST /graphql',
  probe: null,
  code: 1,
  signal: null,
  error: 'TypeError: request.is is not a function',
  restarted: true,
  ...extra,
});

/** The report's opening paragraphs for a run whose check saw these process ends. */
function opening(ends: ServerEnd[]) {
  const run = results(() => 1.2);
  run.ownApp = ownAppRecord({ compatibility: { startFailure: null, routes: [], ends } });
  return decisionSentences(analyze(run)).map(markdownText);
}

describe('the report opens with what ended the app’s process', () => {
  it('says once what ended it the same way under several operations, naming each', () => {
    const [first, second] = opening([end('get-me'), end('sign-in')]);
    expect(first).toBe(
      "**Nest-Fastify's process ended** under `POST /graphql` (get-me, sign-in), exit code 1: TypeError: request.is is not a function. These are not timed; the server was started again after each.",
    );
    expect(second).toMatch(/^\*\*node@20 .*Nest-Fastify served/);
  });

  it('names the probe whose request ended it, and a server that did not start again', () => {
    const [sentence] = opening([
      end('uploads', { request: 'POST /uploads', probe: 'multipart', signal: 'SIGABRT', restarted: false }),
    ]);
    expect(sentence).toBe(
      "**Nest-Fastify's process ended** under `POST /uploads` (the multipart probe of uploads), signal SIGABRT: TypeError: request.is is not a function. The route’s own request answered alike; the server did not start again after the last.",
    );
  });
});

describe('the report opens with what kept the app from booting', () => {
  it('takes no second full stop after an error or a fix that ends its own sentence', () => {
    const run = results(() => 1.2);
    run.ownApp = ownAppRecord({
      compatibility: { startFailure: null, routes: [] },
      bootFailure: {
        adapter: 'fastify',
        runtime: 'node@20.20.2',
        error: 'The "@fastify/static" package is missing. Please, make sure to install it.',
        step: null,
        at: null,
        fix: 'npm i @fastify/static@9 (or swaggerUiEnabled: false)',
      },
    });
    const [first] = decisionSentences(analyze(run)).map(markdownText);
    expect(first).toBe(
      '**Nest-Fastify did not boot** on node@20.20.2: The "@fastify/static" package is missing. Please, make sure to install it. Fix: npm i @fastify/static@9 (or swaggerUiEnabled: false).',
    );
  });
});

describe('the opening on a profile whose req/s is its pace', () => {
  it("gives its ratio as Express's CPU per request over Fastify's, apart from the req/s ratios", () => {
    const run = results(() => 1);
    const config = run.config!;
    for (const timed of run.runs)
      timed.server = { ...timed.server, cpuUsPerRequest: timed.target === 'nest-express' ? 130 : 100 };
    const scenarios = config.scenarios.map((scenario) =>
      scenario.name === 'hello' ? { ...scenario, metric: 'cpu-per-request' as const } : scenario,
    );
    const [sentence] = decisionSentences(analyze({ ...run, config: { ...config, scenarios } })).map(markdownText);
    expect(sentence).toMatch(
      /^\*\*node@20[^*]*\*\*: Paced, at the same req\/s, Nest-Express used hello 1\.30× \([^)]*\) the CPU per request Nest-Fastify used\. Decided: hello does not hold\.$/,
    );
    expect(sentence).not.toContain('as many req/s');
  });
});

describe('the report opens its Switching paragraph with the finding its table leads with', () => {
  it('names the filter that leads, not the middleware after it whose answers are folded', () => {
    const run = results(() => 1.2);
    const shared = {
      role: 'filter' as const,
      name: 'AllExceptionsFilter',
      registered: 'src/app.module.ts:23',
      routes: null,
    };
    run.ownApp = ownAppRecord({
      scan: {
        files: [],
        fromSourceMaps: 0,
        skipped: null,
        findings: [
          {
            rule: "app.use(express.json({ limit: '1mb' }))",
            ...BODY_PARSER_IN_APP_USE,
            file: 'src/main.ts',
            line: 12,
            code: "app.use(express.json({ limit: '1mb' }));",
            handler: null,
          },
          {
            rule: 'response.json',
            kind: 'breaks',
            file: 'src/all-exceptions.filter.ts',
            line: 12,
            code: 'response.status(status).json(body);',
            handler: 'AllExceptionsFilter.catch',
            onFastify: 'the filter gets Fastify’s reply, which has no json()',
            fix: 'response.status(status).send(body)',
            shared,
          },
        ],
      },
      compatibility: {
        startFailure: null,
        routes: [
          routeCompatibility({
            scenario: 'login',
            request: 'POST /login',
            same: false,
            difference: 'status 200 → none',
            express: answerOf(200, '{}'),
            fastify: { ...answerOf(200, ''), status: null, error: 'request failed: no answer within 10 s' },
            probes: [
              {
                probe: 'other case',
                request: 'POST /LOGIN',
                difference: 'status 200 → 500',
                express: answerOf(200, '{}'),
                fastify: answerOf(500, '{"message":"response.status(...).json is not a function"}'),
              },
            ],
          }),
        ],
      },
    });
    const switching = decisionSentences(analyze(run))
      .map(markdownText)
      .find((p) => p.startsWith('**Switching**'));
    expect(switching).toMatch(/^\*\*Switching\*\*: first src\/all-exceptions\.filter\.ts:12, in a filter registered/);
    // the filter explains no answer of its own here (Express served the capitals); the login's is the parser's
    expect(switching).not.toContain('it explains');
  });
});
