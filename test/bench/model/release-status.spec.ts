import { UsageError } from '../../../bench/errors.js';
import { ltsLine, releaseStatus, runtimeLabel, supportedLines } from '../../../bench/model/release-status.js';
import { describeRuntimeChoice } from '../../../bench/runtimes/runtimes.js';
import { parseRuntimeList, planRuntimes } from '../../../bench/runtimes/runtime-specs.js';

/** The day the issue was written: Node 20 end of life, 22 and 24 maintenance LTS, 26 active LTS. */
const TODAY = '2026-11-23T23:00:00.000Z';

const node = (version: string) => ({ name: 'node', version });
const phaseOn = (version: string, date: string) => releaseStatus(node(version), date).phase;

function parseError(text: string, date = TODAY): UsageError {
  try {
    parseRuntimeList(text, date);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parseRuntimeList(${JSON.stringify(text)}) did not throw`);
}

describe('releaseStatus', () => {
  it('gives each line its phase on 2026-11-23, with the end date where it matters', () => {
    expect(
      ['20.20.2', '22.23.3', '23.11.1', '24.21.0', '25.9.0', '26.10.0'].map(
        (version) => releaseStatus(node(version), TODAY).text,
      ),
    ).toEqual([
      'end of life since 2026-04-30',
      'maintenance LTS until 2027-04-30',
      'end of life since 2025-06-01',
      'maintenance LTS until 2028-04-30',
      'end of life since 2026-06-01',
      'active LTS',
    ]);
  });

  it('turns Node 20 end of life on its end date, not a day earlier', () => {
    expect(phaseOn('20.20.2', '2026-04-29T23:59:59Z')).toBe('maintenance LTS');
    expect(phaseOn('20.20.2', '2026-04-30T00:00:00Z')).toBe('end of life');
  });

  it('moves Node 26 from current to active LTS on its LTS date', () => {
    expect(phaseOn('26.10.0', '2026-10-27')).toBe('current');
    expect(phaseOn('26.10.0', '2026-10-28')).toBe('active LTS');
  });

  it('moves Node 24 from active to maintenance LTS on its maintenance date', () => {
    expect(phaseOn('24.21.0', '2026-10-19')).toBe('active LTS');
    expect(phaseOn('24.21.0', '2026-10-20')).toBe('maintenance LTS');
  });

  it('gives an odd line a maintenance without LTS after its current months, then end of life', () => {
    expect(phaseOn('25.9.0', '2026-03-31')).toBe('current');
    expect(releaseStatus(node('25.9.0'), '2026-04-01').text).toBe('maintenance until 2026-06-01');
    expect(phaseOn('25.9.0', '2026-06-01')).toBe('end of life');
  });

  it('says a line is not released before its start date', () => {
    expect(releaseStatus(node('26.0.0'), '2026-05-04')).toMatchObject({
      phase: 'not released',
      supported: false,
    });
  });

  it('names the LTS codename and the exact release V8 version', () => {
    expect(releaseStatus(node('26.10.0'), TODAY)).toMatchObject({
      codename: 'Lithium',
      v8: expect.stringMatching(/^14\./),
    });
  });

  it('labels Bun plainly: no LTS schedule', () => {
    expect(releaseStatus({ name: 'bun', version: '1.3.2' }, TODAY)).toMatchObject({
      phase: 'no LTS schedule',
      supported: true,
    });
    expect(runtimeLabel('bun@1.3.2', TODAY)).toBe('bun@1.3.2 (no LTS schedule)');
  });

  it("labels Deno with what the npm registry said of its release, as the registry's word", () => {
    const registry = { package: 'deno', published: '2026-08-27', latest: '2.9.6', checked: '2026-11-25' };
    const runtimes = [{ name: 'deno', version: '2.9.6', registry }];
    expect(runtimeLabel('deno@2.9.6', TODAY, runtimes)).toBe(
      'deno@2.9.6 (npm: published 2026-08-27, newest on 2026-11-25)',
    );
    const older = [{ name: 'deno', version: '2.9.5', registry: { ...registry, published: '2026-08-06' } }];
    expect(runtimeLabel('deno@2.9.5', TODAY, older)).toBe(
      'deno@2.9.5 (npm: published 2026-08-06, 2.9.6 newest on 2026-11-25)',
    );
    expect(runtimeLabel('deno@2.9.6', TODAY)).toBe('deno@2.9.6 (no LTS schedule)');
  });

  it('says when a Node major is missing from the schedule instead of guessing', () => {
    expect(releaseStatus(node('99.0.0'), TODAY).text).toMatch(/^not in the release schedule of node-releases \d/);
  });

  it('labels a runtime key with its status on the run date', () => {
    expect(runtimeLabel('node@20.20.2', '2025-11-23T10:00:00Z')).toBe(
      'node@20.20.2 (maintenance LTS until 2026-04-30)',
    );
    expect(runtimeLabel('node@20.20.2', TODAY)).toBe('node@20.20.2 (end of life since 2026-04-30)');
  });
});

describe('ltsLine and supportedLines', () => {
  it('take 26 as the LTS line and 22, 24, 26 as supported on 2026-11-23', () => {
    expect(ltsLine(TODAY)).toBe(26);
    expect(supportedLines(TODAY)).toEqual([22, 24, 26]);
  });

  it('keep the newest maintenance LTS line between one line leaving active LTS and the next entering it', () => {
    expect(ltsLine('2026-10-24')).toBe(24);
  });

  it('count an odd line as supported while it is current, not in its short maintenance', () => {
    expect(supportedLines('2026-03-01')).toEqual([20, 22, 24, 25]);
    expect(supportedLines('2026-04-15')).toEqual([20, 22, 24]);
  });
});

describe('parseRuntimeList aliases', () => {
  it('expands lts to the LTS line of the date', () => {
    expect(parseRuntimeList('lts', TODAY)).toEqual([{ text: 'node@26', name: 'node', range: '26', alias: 'lts' }]);
  });

  it('expands supported to every supported line, not Node 20', () => {
    expect(parseRuntimeList('supported', TODAY).map((spec) => spec.text)).toEqual(['node@22', 'node@24', 'node@26']);
  });

  it('expands a major range to every major in it, odd ones included', () => {
    expect(parseRuntimeList('node@22..24', TODAY).map((spec) => spec.text)).toEqual(['node@22', 'node@23', 'node@24']);
  });

  it('mixes aliases with other runtimes in the order given', () => {
    expect(parseRuntimeList('supported,bun', TODAY).map((spec) => spec.text)).toEqual([
      'node@22',
      'node@24',
      'node@26',
      'bun',
    ]);
  });

  it('refuses a runtime an alias already includes, naming the alias', () => {
    expect(parseError('supported,node@24').message).toBe(
      '--runtime: node@24 is listed twice (supported includes it); list each runtime once',
    );
  });

  it('refuses a range that starts below package.json engines', () => {
    expect(parseError('node@18..22').message).toMatch(/node@18 \(from node@18\.\.22\) is older than the app supports/);
  });

  it('refuses a range written backwards', () => {
    expect(parseError('node@26..22').message).toBe(
      '--runtime: node@26..22 runs backwards; write the older major first',
    );
  });

  it('refuses a range reaching a line not released on the date', () => {
    expect(parseError('node@26..27').message).toBe(
      '--runtime: node@27 (from node@26..27) is not released until 2027-04-22',
    );
  });
});

describe('planRuntimes without --runtime', () => {
  it('measures the running node while its line is supported', () => {
    expect(planRuntimes(null, { date: '2026-03-01', runningNode: '20.20.2' })).toEqual({
      specs: [{ text: 'node', name: 'node', range: null }],
      requested: null,
      replaced: null,
    });
  });

  it('measures the LTS line instead of a running node past end of life, and says what it replaced', () => {
    expect(planRuntimes(null, { date: TODAY, runningNode: '20.20.2' })).toEqual({
      specs: [{ text: 'node@26', name: 'node', range: '26', alias: 'lts' }],
      requested: null,
      replaced: { version: '20.20.2', status: 'end of life since 2026-04-30' },
    });
  });

  it("measures a user's app (--nest-app) on the running node even past end of life: the app runs there", () => {
    expect(planRuntimes(null, { date: TODAY, runningNode: '20.20.2', usersApp: true })).toEqual({
      specs: [{ text: 'node', name: 'node', range: null }],
      requested: null,
      replaced: null,
    });
  });

  it('keeps --runtime node as the running node, past end of life or not', () => {
    expect(planRuntimes('node', { date: TODAY, runningNode: '20.20.2' }).specs).toEqual([
      { text: 'node', name: 'node', range: null },
    ]);
  });

  it('says in one line which runtime it measures instead and why', () => {
    const plan = planRuntimes(null, { date: TODAY, runningNode: '20.20.2' });
    const runtime = { spec: 'node@26', name: 'node' as const, version: '26.10.0', command: '/x/node', args: [] };
    expect(describeRuntimeChoice(plan, [runtime], TODAY)).toBe(
      'runtime: node 20.20.2 is end of life since 2026-04-30; measuring the LTS line, node@26 (26.10.0, active LTS), ' +
        'instead — --runtime node measures this node',
    );
  });
});
