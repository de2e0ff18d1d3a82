import { Recorder } from '../../../bench/model/recorder.js';
import { createResults, type Results, type RunRecord } from '../../../bench/model/results.js';

/** A run's record as the bench begins it; only the parts the Recorder never reads are left vague. */
function begun() {
  return createResults({
    startedAt: new Date('2026-11-27T00:00:00Z'),
    environment: {} as Results['environment'],
    options: {} as Results['options'],
    config: undefined,
    plan: {} as Results['plan'],
  });
}

/** A Recorder whose every write is kept as the JSON text it wrote. */
function recording() {
  const written: string[] = [];
  const record = new Recorder(begun(), (results) => written.push(JSON.stringify(results)));
  const lastWritten = () => JSON.parse(written.at(-1) ?? 'null') as Results;
  return { record, written, lastWritten };
}

const run = (round: number): RunRecord =>
  ({ runtime: 'node@24', target: 'nest-express', scenario: 'hello', stack: 'bare', round, start: 0 }) as RunRecord;

describe('the Recorder: the one way stages add to a run record', () => {
  it('writes each addition at once, so a crash right after it loses nothing', () => {
    const { record, written, lastWritten } = recording();
    record.runs([run(1)]);
    expect(written).toHaveLength(1);
    expect(lastWritten().runs).toEqual([run(1)]);
    record.runs([run(2), run(3)]);
    expect(written).toHaveLength(2);
    expect(lastWritten().runs.map((r) => r.round)).toEqual([1, 2, 3]);
  });

  it('leaves a kind of record a run never made absent, and creates it on its first entry', () => {
    const { record, lastWritten } = recording();
    record.verified([]);
    expect(lastWritten()).not.toHaveProperty('warmUps');
    expect(lastWritten()).not.toHaveProperty('drains');
    record.warmedUp({
      runtime: 'node@24',
      target: 'nest-express',
      scenario: 'hello',
      stack: 'bare',
      start: 0,
      youngMiB: [8],
    });
    expect(lastWritten().warmUps).toHaveLength(1);
  });

  it('keeps one fitted load per block: a later fit of the same block replaces the earlier, another block is added', () => {
    const { record, lastWritten } = recording();
    const load = (scenario: string, connections: number) => ({
      runtime: 'node@24',
      scenario,
      stack: 'bare',
      connections,
      durationSec: 1,
      lowered: false,
    });
    const sameAs = (scenario: string) => (earlier: { scenario: string }) => earlier.scenario === scenario;
    record.blockLoad(load('hello', 100) as never, sameAs('hello'));
    record.blockLoad(load('catalog', 50) as never, sameAs('catalog'));
    record.blockLoad(load('hello', 40) as never, sameAs('hello'));
    expect(lastWritten().blockLoads?.map((entry) => [entry.scenario, entry.connections])).toEqual([
      ['hello', 40],
      ['catalog', 50],
    ]);
  });

  it('marks only the latest start of a restarted server', () => {
    const { record, lastWritten } = recording();
    const started = (target: string, start: number) => ({
      runtime: 'node@24',
      target,
      start,
      pid: 1,
      port: 1,
      line: '',
    });
    record.started(started('nest-express', 0));
    record.started(started('nest-fastify', 0));
    record.started(started('nest-express', 1));
    record.restarted('nest-express');
    expect(lastWritten().started.map((entry) => entry.restarted ?? false)).toEqual([false, false, true]);
  });

  it('says a run is complete only when told, and keeps the reason it stopped otherwise', () => {
    const { record, lastWritten } = recording();
    expect(record.results).toMatchObject({ complete: false, stopReason: 'still running' });
    record.stopped('interrupted (SIGINT)');
    expect(lastWritten()).toMatchObject({ complete: false, stopReason: 'interrupted (SIGINT)' });
    const other = recording();
    other.record.completed();
    other.record.finished(new Date('2026-11-27T01:00:00Z'));
    expect(other.lastWritten()).toMatchObject({
      complete: true,
      stopReason: null,
      finishedAt: '2026-11-27T01:00:00.000Z',
    });
  });

  it('records a load curve that planned nothing as planned, and its runs and warm-ups under it', () => {
    const { record, lastWritten } = recording();
    record.curvePlans([]);
    expect(lastWritten().loadCurve).toEqual({ plans: [], runs: [] });
    record.curveWarmUps([
      { runtime: 'node@24', scenario: 'hello', target: 'nest-express', rps: 100, lateShares: [0], kept: true },
    ]);
    record.curveRun({ round: 1 } as never);
    expect(lastWritten().loadCurve).toMatchObject({ plans: [], runs: [{ round: 1 }], warmUps: [{ kept: true }] });
  });

  it('adds each runtime’s cold starts to the earlier ones', () => {
    const { record, lastWritten } = recording();
    record.coldStarts([{ runtime: 'node@22' } as never]);
    record.coldStarts([{ runtime: 'node@24' } as never]);
    expect(lastWritten().coldStarts?.map((entry) => entry.runtime)).toEqual(['node@22', 'node@24']);
  });
});
