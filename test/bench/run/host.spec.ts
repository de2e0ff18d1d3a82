import { cpuIdentity, hostDuring, readCpuTimes } from '../../../bench/run/host.js';

const CPUINFO = `processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 1
model name\t: AMD EPYC
stepping\t: 1
microcode\t: 0x1000065
flags\t\t: fpu hypervisor

processor\t: 1
vendor_id\t: AuthenticAMD
model\t\t: 99
`;

/** /proc/stat with the given ticks: user nice system idle iowait irq softirq steal, for all CPUs and CPU 0. */
function stat(all: number[], cpu0: number[]) {
  return `cpu  ${all.join(' ')} 0 0\ncpu0 ${cpu0.join(' ')} 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\nintr 1 2 3\n`;
}

describe('host identity', () => {
  it('tells the CPU apart beyond its model name: vendor, family, model, stepping and microcode of the first CPU', () => {
    expect(cpuIdentity(CPUINFO)).toMatchObject({
      vendor: 'AuthenticAMD',
      family: 25,
      model: 1,
      modelName: 'AMD EPYC',
      stepping: 1,
      microcode: '0x1000065',
    });
  });

  it('leaves a field it cannot find null instead of guessing', () => {
    expect(cpuIdentity('processor : 0\nmodel name : Some CPU\n')).toMatchObject({
      vendor: null,
      family: null,
      stepping: null,
      modelName: 'Some CPU',
    });
  });
});

describe('the host during a run', () => {
  it('reads steal as a share of all CPUs’ time between two readings', () => {
    const before = readCpuTimes(stat([100, 0, 0, 800, 0, 0, 0, 100], [50, 0, 0, 450, 0, 0, 0, 0]));
    const after = readCpuTimes(stat([200, 0, 0, 1600, 0, 0, 0, 200], [100, 0, 0, 900, 0, 0, 0, 0]));
    expect(hostDuring(before, after, { serverCpu: null, serverCpuNs: null }).stealShare).toBeCloseTo(0.1);
  });

  it('counts as other CPU on the server’s core only what the server itself did not use', () => {
    const before = readCpuTimes(stat([0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]));
    const after = readCpuTimes(stat([60, 0, 0, 40, 0, 0, 0, 0], [60, 0, 0, 40, 0, 0, 0, 0]));
    if (!before || !after) throw new Error('unreadable /proc/stat sample');
    // one second passed; the core was busy 60 ticks (0.6 s at USER_HZ 100), the server used 0.5 s of it
    after.atNs = before.atNs + 1_000_000_000n;
    const host = hostDuring(before, after, { serverCpu: '0', serverCpuNs: 0.5e9 });
    expect(host.serverCore?.otherShare).toBeCloseTo(0.1);
    expect(host.serverCore?.stealShare).toBe(0);
  });

  it('has no core figures when the server is not pinned to one core', () => {
    const times = readCpuTimes(stat([1, 0, 0, 1, 0, 0, 0, 0], [1, 0, 0, 1, 0, 0, 0, 0]));
    expect(hostDuring(times, times, { serverCpu: null, serverCpuNs: 1 }).serverCore).toBeNull();
  });
});
