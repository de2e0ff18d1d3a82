import { runFacts } from '../../../bench/analysis/record.js';
import { designOf } from '../../../bench/model/design.js';
import type { Verification } from '../../../bench/run/verify.js';
import { results } from '../support/synthetic-results.js';

/** A pair that passed verification. */
const verified = (target: string, scenario: string): Verification => ({
  runtime: 'node@20',
  target,
  scenario,
  stack: 'bare',
  ok: true,
  reason: null,
  status: 200,
  headers: {},
});

function withTrouble() {
  const run = results(() => 2);
  run.options.durationSec = 5;
  run.runs[0] = {
    ...run.runs[0],
    status: 'failed',
    failure: {
      reason: 'exited with code 1',
      stderrTail: 'at x\nTypeError: boom\n    at y (a.js:1:1)\n\nNode.js v26.1.0\n',
    },
  };
  run.runs[3] = { ...run.runs[3], status: 'too-slow', failure: { reason: 'no answer within the run' } };
  run.targetFailures = [{ runtime: 'node@20', target: 'raw-node', reason: 'port in use' }];
  run.verification = [
    { ...verified('nest-fastify', 'json'), ok: false, reason: 'status 500', status: 500 },
    verified('nest-express', 'hello'),
  ];
  return run;
}

describe("the Analysis's facts of the run", () => {
  it('lists what did not go as planned: a target that did not start, a failed verification, failed and too-slow runs', () => {
    const { problems } = runFacts(withTrouble());
    expect(problems).toEqual([
      { runtime: 'node@20', target: 'raw-node', scenario: null, what: 'could not start', why: 'port in use' },
      {
        runtime: 'node@20',
        target: 'nest-fastify',
        scenario: 'json',
        what: 'skipped (verification)',
        why: 'status 500',
      },
      {
        runtime: 'node@20',
        target: 'nest-express',
        scenario: 'hello',
        what: 'round 1 failed',
        why: 'exited with code 1 — stderr: TypeError: boom',
      },
      {
        runtime: 'node@20',
        target: 'nest-fastify',
        scenario: 'hello',
        what: 'round 2 too slow for --duration 5 s',
        why: 'no answer within the run',
      },
    ]);
  });

  it('lists nothing when every run went as planned', () => {
    expect(runFacts(results(() => 2)).problems).toEqual([]);
  });

  it('names only the targets whose header differed, and the stacks the plan ran', () => {
    const run = results(() => 2);
    run.plan.pairs = [
      { target: 'nest-express', scenario: 'hello', stack: 'bare' },
      { target: 'nest-express', scenario: 'hello', stack: 'production' },
    ];
    run.headerDifferences = [
      { runtime: 'node@20', scenario: 'hello', stack: 'bare', header: 'etag', values: { 'nest-express': 'W/"a"' } },
    ];
    expect(runFacts(run).headers).toMatchObject({ targets: ['nest-express'], stacks: ['bare', 'production'] });
  });

  it("plans the rounds from the run's Design, and says whether its blocks ran to a steady state", () => {
    const run = results(() => 2, { starts: 4 });
    run.plan.design = designOf({ rounds: 3, budgetSec: 600, starts: 4 });
    expect(runFacts(run).rounds).toEqual({ starts: 4, roundsPerStart: null, budgetPerRuntimeSec: 600, steady: false });
    run.steadyBlocks = [];
    expect(runFacts(run).rounds.steady).toBe(true);
  });
});

describe('the load generators a run used', () => {
  it('are the ones it recorded, each with its version', () => {
    const run = results(() => 2);
    run.environment = { ...run.environment, generators: ['wrk debian/4.1.0-3+b2', 'h2load nghttp2/1.52.0'] };
    expect(runFacts(run).generators).toEqual(['wrk debian/4.1.0-3+b2', 'h2load nghttp2/1.52.0']);
  });

  it('are, in results from before they were recorded, h2load where runs spoke HTTP/2, and the driver where they did not', () => {
    const run = results(() => 2);
    expect(runFacts(run).generators).toEqual(['autocannon']);
    run.runs = run.runs.map((timed) => ({ ...timed, load: { ...timed.load, protocol: 'h2' } }));
    expect(runFacts(run).generators).toEqual(['h2load (its version was not recorded)']);
    run.runs[0] = { ...run.runs[0], load: { ...run.runs[0].load, protocol: 'http/1.1' } };
    expect(runFacts(run).generators).toEqual(['autocannon', 'h2load (its version was not recorded)']);
  });
});
