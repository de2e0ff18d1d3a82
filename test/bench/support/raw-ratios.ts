// Ratios computed here straight from the raw run records, to check what the analysis makes of the same records.
import type { Results } from '../../../bench/model/results.js';

/** Each round's `numerator` ÷ `denominator` req/s on one scenario (of one runtime, when given), rounds where both ran ok. */
export function roundRatios(
  results: Results,
  {
    scenario,
    runtime,
    numerator = 'nest-fastify',
    denominator = 'nest-express',
  }: { scenario: string; runtime?: string; numerator?: string; denominator?: string },
): number[] {
  const rps = (target: string, round: number) =>
    results.runs.find(
      (r) =>
        (runtime === undefined || r.runtime === runtime) &&
        r.target === target &&
        r.scenario === scenario &&
        r.round === round &&
        r.status === 'ok',
    )?.load?.rps ?? Number.NaN;
  const rounds = [...new Set(results.runs.map((r) => r.round))];
  return rounds.map((round) => rps(numerator, round) / rps(denominator, round)).filter(Number.isFinite);
}
