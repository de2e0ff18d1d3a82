import { buildReferenceHosts, committedReferenceHosts } from '../../../bench/bin/reference-hosts.js';

describe('the committed index of reference hosts', () => {
  it('is what results/reference rebuilds it to (after a reference run, node bench/bin/reference-hosts.js)', () => {
    expect(committedReferenceHosts()).toEqual(buildReferenceHosts());
  });

  it('holds the default-design reference runs of the built-in app, each headline with its CPU identity', () => {
    const hosts = committedReferenceHosts();
    expect(new Set(hosts.map((entry) => `${entry.scenario} · ${entry.stack}`))).toEqual(new Set(['hello · bare']));
    expect(hosts.every((entry) => entry.cpu.vendor !== null && entry.cpu.family !== null)).toBe(true);
    expect(new Set(hosts.map((entry) => entry.run)).size).toBeGreaterThanOrEqual(3);
  });
});
