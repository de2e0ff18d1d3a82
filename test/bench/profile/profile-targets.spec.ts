import autocannon from '../../../bench/run/drivers/autocannon.js';
import { profileTargets } from '../../../bench/profile/profile-targets.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { resolvePair } from '../../../bench/model/scenarios.js';

describe('profileTargets', () => {
  it("skips Bun with a message instead of starting anything: --prof is V8's", async () => {
    const lines: string[] = [];
    const records = await profileTargets({
      pairs: [resolvePair({ target: 'nest-express', scenario: 'hello' }, { token: null, config: BUILTIN_CONFIG })],
      runtime: { spec: 'bun', name: 'bun', version: '1.3.2', command: '/nonexistent/bun', args: [] },
      driver: autocannon,
      durationSec: 1,
      connections: 1,
      outDir: '/nonexistent/profiles',
      port: 4600, // never listened on: bun is skipped before anything starts
      log: (line) => lines.push(line),
    });
    expect(records).toHaveLength(1);
    expect(records[0].skipped).toMatch(/bun is not profiled/);
    expect(records[0].files).toBeNull();
    expect(lines).toEqual([expect.stringMatching(/^profiles skipped — bun: /)]);
  });
});
