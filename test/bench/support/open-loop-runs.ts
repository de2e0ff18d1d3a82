// Open-loop runs as the generator reports them, for tests of what the load curve and --rate make of them.
import hdr from 'hdr-histogram-js';
import { HISTOGRAM, type OpenLoopRun } from '../../../bench/run/open-loop/generator.js';

/** Every answer's latency, from its due time. */
const LATENCY_US = 2000;

/** One run offered `rate` req/s for `durationSec`: `answered` requests at LATENCY_US, then `timeouts` more. */
export function openLoopRun({
  rate,
  answered,
  timeouts = 0,
  durationSec = 1,
}: {
  rate: number;
  answered: number;
  timeouts?: number;
  durationSec?: number;
}): OpenLoopRun {
  const histogram = hdr.build(HISTOGRAM);
  for (let i = 0; i < answered; i++) histogram.recordValue(LATENCY_US);
  const latencyHistogram = hdr.encodeIntoCompressedBase64(histogram);
  histogram.destroy();
  const ms = LATENCY_US / 1000;
  return {
    offeredRps: rate,
    sent: answered + timeouts,
    completed: answered,
    elapsedSec: durationSec,
    achievedRps: answered / durationSec,
    errors: 0,
    timeouts,
    unexpectedStatus: 0,
    latencyHistogram,
    latencyMs: { p50: ms, p90: ms, p99: ms, p999: ms, max: ms },
    lateness: { dispatched: answered + timeouts, late: 0, share: 0, maxNs: 0 },
    generatorCpuShare: 0.1,
    generatorBusyShare: 0.1,
    serverCpuNs: 0,
  };
}
