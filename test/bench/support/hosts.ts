// Runs on named CPUs and the committed index entries they would give, for the host placing's specs.
import { analyze } from '../../../bench/analysis/analyze.js';
import { type ReferenceHost, referenceEntries } from '../../../bench/analysis/host-placing.js';
import type { CpuIdentity } from '../../../bench/model/records.js';
import { ENVIRONMENT, results } from './synthetic-results.js';

export const XEON: CpuIdentity = {
  vendor: 'GenuineIntel',
  family: 6,
  model: 167,
  modelName: 'Intel(R) Xeon(R)',
  stepping: 1,
  microcode: '0x1',
  caches: [],
};
export const EPYC: CpuIdentity = {
  ...XEON,
  vendor: 'AuthenticAMD',
  family: 23,
  model: 49,
  modelName: 'AMD EPYC',
  stepping: 0,
};

/** A run of hello at `ratio` on a host, with the references it recorded when it started. */
export function runOn(cpu: CpuIdentity, ratio: number, referenceHosts?: ReferenceHost[]) {
  const run = results((round) => ratio * (1 + (round % 3) / 100), { starts: 4 });
  return {
    ...run,
    environment: { ...ENVIRONMENT, host: { cpu, kernel: '6.8.0', virtualization: { vm: 'kvm', container: null } } },
    ...(referenceHosts ? { referenceHosts } : {}),
  };
}

/** The index entries a committed run on `cpu` reading `ratio` would give. */
export function reference(run: string, cpu: CpuIdentity, ratio: number): ReferenceHost[] {
  const committed = runOn(cpu, ratio);
  return referenceEntries(run, committed, analyze(committed).ratios);
}

/** An index of two committed hosts: the Xeon at 2.07×, the EPYC at 2×. */
export const TWO_HOSTS = [
  ...reference('results/reference/xeon', XEON, 2.07),
  ...reference('results/reference/epyc', EPYC, 2.0),
];
