import { CPU_PER_REQUEST, RATE, defaultMetric, metricValue } from '../../../bench/model/metrics.js';

describe('what a ratio divides', () => {
  it('is CPU per request where the load is paced, whose req/s is its pace, and req/s otherwise', () => {
    expect(defaultMetric({ connectionRate: 0.5 })).toBe(CPU_PER_REQUEST);
    expect(defaultMetric({ connectionRate: null })).toBe(RATE);
    expect(defaultMetric(null)).toBe(RATE);
  });

  it("reads a run's req/s, or the requests its server answered per CPU second, so that higher is better", () => {
    const run = { load: { rps: 470 }, server: { cpuUsPerRequest: 125 } };
    expect(metricValue(RATE, run)).toBe(470);
    expect(metricValue(CPU_PER_REQUEST, run)).toBe(8000);
  });

  it('reads nothing where the run did not measure it', () => {
    expect(metricValue(CPU_PER_REQUEST, { load: { rps: 470 }, server: { cpuUsPerRequest: null } })).toBeNull();
    expect(metricValue(CPU_PER_REQUEST, { load: { rps: 470 }, server: null })).toBeNull();
    expect(metricValue(RATE, { load: { rps: 0 } })).toBeNull();
  });
});
