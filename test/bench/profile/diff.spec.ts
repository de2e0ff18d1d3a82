import { diffProfiles, type SavedProfile } from '../../../bench/profile/diff.js';
import type { GroupId } from '../../../bench/profile/groups.js';
import { layerTicks } from '../../../bench/profile/layers.js';
import type { FlameNode } from '../../../bench/profile/tick-analysis.js';

type Fn = { name: string; group: GroupId; selfTicks: number };

/** A saved profile as the bench writes it: each function a child of the root, its ticks all self, the whole log read. */
function profile(functions: Fn[], cpuUsPerRequest: number | null, version: string): SavedProfile {
  const ticks = functions.reduce((sum, f) => sum + f.selfTicks, 0);
  const share = (part: number) => part / ticks;
  const flame: FlameNode = {
    n: 'all',
    g: 'native',
    v: ticks,
    c: functions.map((f) => ({ n: f.name, g: f.group, v: f.selfTicks, c: [] })),
  };
  const groups = [...new Set(functions.map((f) => f.group))].map((id) => {
    const selfTicks = functions.filter((f) => f.group === id).reduce((sum, f) => sum + f.selfTicks, 0);
    const shares = { selfShare: share(selfTicks), totalTicks: selfTicks, totalShare: share(selfTicks) };
    return { id, label: id, selfTicks, callerTicks: 0, callerShare: 0, ...shares };
  });
  return {
    file: `/profiles/${version}/raw-express-hello.json`,
    name: 'raw-express-hello',
    summary: {
      title: `raw-express-hello on node@${version} (${version})`,
      v8Version: `v8-for-${version}`,
      processedWith: `node ${version}`,
      window: { source: 'whole log', startMs: null, endMs: null, durationSec: null },
      ticks: {
        inLog: ticks,
        beforeWindow: 0,
        afterWindow: 0,
        inWindow: ticks,
        unaccounted: 0,
        unaccountedShare: 0,
        unnamedNative: 0,
      },
      vmStates: {},
      groups,
      functions: functions.map((f) => ({
        ...f,
        selfShare: share(f.selfTicks),
        totalTicks: f.selfTicks,
        totalShare: share(f.selfTicks),
      })),
      layers: layerTicks(functions),
      flame,
      context:
        cpuUsPerRequest === null
          ? null
          : {
              target: 'raw-express',
              scenario: 'hello',
              stack: 'bare',
              runtime: { spec: `node@${version}`, name: 'node', version },
              measured: { cpuUsPerRequest, rounds: 6, neighbourCpuShare: 0 },
              loadAverage: 1,
            },
    },
  };
}

const OLDER = profile(
  [
    { name: 'Builtin: LoadIC_Megamorphic', group: 'native', selfTicks: 50 },
    { name: 'writev@@GLIBC_2.2.5', group: 'native', selfTicks: 30 },
    { name: 'next router/index.js:189:17', group: 'express', selfTicks: 20 },
    { name: 'epoll_wait', group: 'idle', selfTicks: 100 },
  ],
  40,
  '23.11.1',
);
const NEWER = profile(
  [
    { name: 'writev@@GLIBC_2.2.5', group: 'native', selfTicks: 60 },
    { name: 'next router/index.js:201:3', group: 'express', selfTicks: 20 },
    { name: 'Builtin: StoreIC', group: 'native', selfTicks: 20 },
  ],
  20,
  '24.21.0',
);
const diff = diffProfiles(OLDER, NEWER);
const row = (label: string) => diff.functions.find((r) => r.label === label)!;

describe('a differential profile', () => {
  it('names both runtimes with their V8 versions and measured CPU per request', () => {
    expect(diff.older).toMatchObject({ label: 'node 23.11.1', v8Version: 'v8-for-23.11.1', cpuUsPerRequest: 40 });
    expect(diff.newer).toMatchObject({ label: 'node 24.21.0', v8Version: 'v8-for-24.21.0', cpuUsPerRequest: 20 });
  });

  it('shares each profile’s busy ticks, idle left out', () => {
    expect(diff.older.busyTicks).toBe(100);
    expect(row('writev@@GLIBC_2.2.5').older.share).toBeCloseTo(0.3);
    expect(row('writev@@GLIBC_2.2.5').newer.share).toBeCloseTo(0.6);
    expect(row('writev@@GLIBC_2.2.5').deltaShare).toBeCloseTo(0.3);
  });

  it('turns shares into µs per request with each run’s own CPU per request', () => {
    const writev = row('writev@@GLIBC_2.2.5');
    expect(writev.older.us).toBeCloseTo(12); // 30 % of 40 µs
    expect(writev.newer.us).toBeCloseTo(12); // 60 % of 20 µs: a bigger share of a cheaper request
    expect(writev.deltaUs).toBeCloseTo(0);
  });

  it('marks functions only one profile has, and lists the largest change first', () => {
    expect(row('Builtin: LoadIC_Megamorphic')).toMatchObject({ presence: 'removed', deltaUs: -20 });
    expect(row('Builtin: StoreIC').presence).toBe('added');
    expect(diff.functions[0].label).toBe('Builtin: LoadIC_Megamorphic');
  });

  it('matches JavaScript functions whose position moved between versions', () => {
    expect(row('next router/index.js')).toMatchObject({ presence: 'both' });
    expect(row('next router/index.js').older.ticks).toBe(20);
  });

  it('sums the layers: V8 lost what the megamorphic loads cost, the framework kept its share', () => {
    const v8 = diff.layers.find((l) => l.key === 'v8')!;
    expect(v8.older.us).toBeCloseTo(20);
    expect(v8.newer.us).toBeCloseTo(4);
    expect(diff.layers.find((l) => l.key === 'framework')!.deltaShare).toBeCloseTo(0);
  });

  it('leaves µs out when a profile has no measured CPU per request', () => {
    const unmeasured = diffProfiles(profile([{ name: 'a', group: 'native', selfTicks: 1 }], null, '23.11.1'), NEWER);
    expect(unmeasured.functions.every((r) => r.deltaUs === null)).toBe(true);
  });
});

describe('the differential flame graph’s call tree', () => {
  const frame = <T extends { n: string; c: T[] }>(tree: T, name: string) => tree.c.find((c) => c.n === name)!;

  it('gives each of the newer tree’s frames the older’s ticks and the change in self share', () => {
    const writev = frame(diff.newerFlame, 'writev@@GLIBC_2.2.5');
    expect(writev).toMatchObject({ v: 60, s: 60, o: 30, os: 30 });
    expect(writev.d).toBeCloseTo(0.3);
  });

  it('marks a frame the older tree lacks with no older value', () => {
    expect(frame(diff.newerFlame, 'Builtin: StoreIC').o).toBeNull();
  });

  it('keeps the frames that vanished in the older tree, with the change still newer − older', () => {
    const gone = frame(diff.olderFlame, 'Builtin: LoadIC_Megamorphic');
    expect(gone.o).toBeNull();
    expect(gone.d).toBeCloseTo(-0.5);
  });
});
