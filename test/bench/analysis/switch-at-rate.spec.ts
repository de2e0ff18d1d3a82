import { TARGET_UTILISATION, capacity, switchAtRate } from '../../../bench/analysis/switch-at-rate.js';
import { credentials } from '../../../bench/own-app/sign-in/authenticate.js';
import { refusalMessage } from '../../../bench/own-app/check/compatibility.js';
import type { CurveRunRecord, Results } from '../../../bench/model/results.js';
import { compatibilityTable, switchAtRateTable } from '../../../bench/report/own-app-tables.js';
import { checkChanges } from '../../../bench/analysis/own-app-facts.js';
import { openLoopRun } from '../support/open-loop-runs.js';
import { ownAppRecord } from '../support/own-app-record.js';
import { results as syntheticResults } from '../support/synthetic-results.js';

const RATE = 300;

/** One open-loop run at RATE of one adapter, in one round, using `cpuShare` cores at `cpuUs` µs per request. */
const curveRun = (target: string, round: number, cpuShare: number, cpuUs: number): CurveRunRecord => ({
  runtime: 'node@26',
  scenario: 'traffic',
  target,
  level: { share: null, rps: RATE },
  round,
  slot: 1,
  startedAt: '',
  status: 'ok',
  failure: null,
  // served in full; no latency histogram, so the run is flagged out of the percentiles
  run: openLoopRun({ rate: RATE, answered: RATE }),
  server: { cpuShare, cpuUsPerRequest: cpuUs, peakRssMiB: 100, peakRssWindow: 'run' },
  generatorFlag: 'no latencies in this test',
});

const results = (runs: CurveRunRecord[]): Results => {
  const made = syntheticResults(() => 1);
  return {
    ...made,
    options: { ...made.options, rate: RATE },
    runs: [],
    loadCurve: {
      plans: [
        { runtime: 'node@26', scenario: 'traffic', capacityRps: {}, basis: null, levels: [{ share: null, rps: RATE }] },
      ],
      runs,
    },
  };
};

describe('switchAtRate (--rate)', () => {
  const rounds = [1, 2, 3, 4, 5, 6];
  const [row] = switchAtRate(
    results(
      rounds.flatMap((round) => [
        curveRun('nest-express', round, 0.3 + round / 1000, 1000),
        curveRun('nest-fastify', round, 0.24 + round / 1000, 800),
      ]),
    ),
  );

  it('gives each adapter’s cores at the rate, the median over rounds with an interval around it', () => {
    expect(row.express.cores?.median).toBeCloseTo(0.3035, 4);
    expect(row.express.cores?.ci?.low).toBeLessThanOrEqual(0.3035);
    expect(row.express.cores?.ci?.high).toBeGreaterThanOrEqual(0.3035);
    expect(row.fastify.cores?.n).toBe(6);
  });

  it('gives the saving from the CPU per request taken within each round', () => {
    expect(row.saving?.median).toBeCloseTo(0.2, 10);
  });

  it('sizes each adapter in instances at the target utilisation', () => {
    expect(row.express.instances).toBe(1);
    expect(row.express.rpsPerInstance).toBeCloseTo((RATE * TARGET_UTILISATION) / 0.3035, 6);
  });

  it('is empty without --rate', () => {
    const withoutRate = results([]);
    expect(switchAtRate({ ...withoutRate, options: { ...withoutRate.options, rate: null } })).toEqual([]);
  });

  it('says where an adapter did not serve the rate', () => {
    const table = switchAtRateTable([
      {
        ...row,
        express: { ...row.express, achievedRps: 120, timeouts: 40, served: false },
        fastify: { ...row.fastify, served: true },
      },
    ]);
    expect(table.rows[0][9]).toBe(
      'Express answered 120 of 300 req/s (40 timeouts): it did not serve this rate, so its cores are those of a server that fell behind and size nothing',
    );
  });

  it('renders the cores with their interval and the saving in percent', () => {
    const table = switchAtRateTable([row]);
    expect(table.title).toBe('What a switch saves at 300 req/s');
    expect(table.rows[0][4]).toMatch(/^20 %/);
  });
});

describe('capacity', () => {
  it('rounds instances up: 1.3 cores at 60 % take three single-core instances', () => {
    expect(capacity(1.3, 1000).instances).toBe(3);
  });

  it('says nothing without a measured CPU', () => {
    expect(capacity(null, 1000)).toEqual({ instances: null, rpsPerInstance: null });
  });
});

describe('credentials (what authenticate() returned)', () => {
  it('takes plain headers, names lower-cased', () => {
    expect(credentials({ Authorization: 'Bearer t' }, 'setup.js')).toEqual({
      headers: { authorization: 'Bearer t' },
      params: {},
    });
  });

  it('takes headers with path parameters', () => {
    expect(credentials({ headers: { authorization: 'x' }, params: { slug: 'a', id: 7 } }, 'setup.js')).toEqual({
      headers: { authorization: 'x' },
      params: { slug: 'a', id: '7' },
    });
  });

  it('refuses anything else in one line that says what to return', () => {
    expect(() => credentials('a token', 'setup.js')).toThrow(
      /setup\.js: authenticate\(\) returned "a token"; return headers/,
    );
  });
});

describe('refusalMessage (what a 4xx body says)', () => {
  it('joins ValidationPipe’s list of messages', () => {
    expect(
      refusalMessage(
        '{"statusCode":400,"message":["email must be an email","password too short"],"error":"Bad Request"}',
      ),
    ).toBe('email must be an email; password too short; Bad Request');
  });

  it('reads an errors object by field', () => {
    expect(refusalMessage('{"message":"Input data validation failed","errors":{"username":"taken"}}')).toBe(
      'Input data validation failed; taken',
    );
  });
});

describe('compatibilityTable', () => {
  it('shows a sign-in that fails on Fastify as something to fix before a switch', () => {
    const table = compatibilityTable(
      checkChanges(
        ownAppRecord({
          signIn: {
            headers: ['authorization'],
            params: [],
            errors: { 'nest-express': null, 'nest-fastify': 'HTTP 500' },
          },
        }),
      ),
    );
    expect(table.rows).toHaveLength(1);
    expect(JSON.stringify(table.rows[0])).toContain('signing in fails on Fastify');
  });
});

describe('switchAtRate where the app did not keep up', () => {
  it('sizes no instances from the cores of a server that fell behind', () => {
    const behind = (target: string, round: number) => ({
      ...curveRun(target, round, 0.6, 60_000),
      run: openLoopRun({ rate: RATE, answered: 8, timeouts: 220 }),
    });
    const [row] = switchAtRate(
      results([1, 2].flatMap((round) => [behind('nest-express', round), behind('nest-fastify', round)])),
    );
    expect(row.express).toMatchObject({ served: false, instances: null, achievedRps: 8, timeouts: 440 });
  });
});
