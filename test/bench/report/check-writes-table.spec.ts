import type { Analysis } from '../../../bench/analysis/analyze.js';
import { checkWritesTables } from '../../../bench/report/check-writes-table.js';

const analysis = (checkWrites: unknown[]) => ({ ownApp: { checkWrites } }) as unknown as Analysis;
const WRITE = { request: 'POST /api/articles', adapter: 'express', status: 201, id: 'id 5' };

describe('What the bench wrote before timing', () => {
  it('says how the check sent writes: after the reads, POST, DELETE, PATCH, PUT, each to Express, Fastify, Express', () => {
    const [{ table }] = checkWritesTables(analysis([WRITE]));
    expect(table.intro).toContain('the reads first and the writes after them, POST, DELETE, PATCH, then PUT');
    expect(table.intro).toContain('to Express, to Fastify and to Express again');
    expect(table.intro).not.toContain('each write once to each adapter');
  });

  it('says a write named only a row the bench made, never one there before the run', () => {
    const [{ table }] = checkWritesTables(analysis([WRITE]));
    expect(table.intro).toContain('named only a row the bench had made');
    expect(table.intro).toContain('never one that was there before the run');
  });

  it('is left out where the check wrote nothing', () => {
    expect(checkWritesTables(analysis([]))).toEqual([]);
  });
});
