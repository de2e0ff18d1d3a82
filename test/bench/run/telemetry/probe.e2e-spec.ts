import { request } from 'node:http';
import { currentNode } from '../../../../bench/runtimes/runtimes.js';
import { startTarget, targetByName } from '../../../../bench/run/targets.js';
import { serverState } from '../../../../bench/run/telemetry/probe.js';

const node = currentNode();

function get(url: string) {
  return new Promise<void>((resolve, reject) => {
    request(url, (res) => res.resume().once('end', resolve))
      .once('error', reject)
      .end();
  });
}

describe('the telemetry preload in a served target', () => {
  it('hands over GC, heap and event-loop figures each time the bench asks', async () => {
    const running = await startTarget(targetByName('raw-node'), { runtime: node, port: 3191, telemetry: true });
    try {
      expect(running.telemetryMissing).toBeNull();
      const before = await running.telemetry?.snapshot();
      for (let i = 0; i < 3000; i++) await get(`${running.url}/`);
      const after = await running.telemetry?.snapshot();
      if (!before || !after) throw new Error('the server wrote no snapshot');
      expect(after.seq).toBe(before.seq + 1);
      const state = serverState(before, after);
      expect(state.during.pauses.minor?.count).toBeGreaterThan(0);
      expect(state.heapAfter?.youngMiB).toBeGreaterThan(0);
      expect(state.heapAfter?.oldMiB).toBeGreaterThan(0);
      expect(state.eventLoopDelay?.maxMs).toBeGreaterThan(0);
      expect(state.eventLoopUtilization).toBeGreaterThan(0);
      expect(state.unsupported).toEqual({});
    } finally {
      await running.stop();
    }
  });

  it('is not loaded unless asked for, and says so', async () => {
    const running = await startTarget(targetByName('raw-node'), { runtime: node, port: 3192 });
    try {
      expect(running.telemetry).toBeNull();
      expect(running.telemetryMissing).toBe('not asked for');
    } finally {
      await running.stop();
    }
  });
});
