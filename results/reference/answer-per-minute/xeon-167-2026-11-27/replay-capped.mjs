// Would a start that reached its round cap with no steady state do better keeping more of its rounds? Replays each
// block's recorded CPU per request (results.steadyBlocks) under three rules: the rounds the bench kept, the last six
// when capped, and the longest tail the bench's own drift test passes. Per start, the geometric mean of
// Nest-Express's ÷ Nest-Fastify's CPU per request; over starts, a 95 % t interval (not the verdict's rule or its
// req/s ratio: read the rules against each other). node replay-capped.mjs default-*/results.json
import { readFileSync } from 'node:fs';
import { drifts } from '../../../../bench/maths/trend.js';
import { studentQuantile } from '../../../../bench/maths/student.js';

const WARM_UP_ROUNDS = 2;
const STEADY_ROUNDS = 3;
const logMean = (values) => values.reduce((sum, value) => sum + Math.log(value), 0) / values.length;

/** @param {number[]} series the earliest round from which the tail passes the drift test, at least STEADY_ROUNDS long */
function undriftedFrom(series) {
  let from = series.length - STEADY_ROUNDS;
  for (let start = from - 1; start >= WARM_UP_ROUNDS && !drifts(series.slice(start)); start--) from = start;
  return from;
}

const RULES = {
  kept: () => (block) => block.steadyFrom,
  'last 6 when capped': () => (block) => (block.steady ? block.steadyFrom : block.rounds - 2 * STEADY_ROUNDS),
  'undrifted tail when capped': (express, fastify) => (block) =>
    block.steady
      ? block.steadyFrom
      : Math.max(undriftedFrom(block.byTarget[express].cpuUsPerRequest), undriftedFrom(block.byTarget[fastify].cpuUsPerRequest)),
};

for (const row of ['hello · production', 'catalog · production', 'purchases · production']) {
  const [scenario, stack] = row.split(' · ');
  for (const file of process.argv.slice(2)) {
    const blocks = JSON.parse(readFileSync(file, 'utf8')).steadyBlocks.filter(
      (block) => block.scenario === scenario && block.stack === stack,
    );
    const names = Object.keys(blocks[0].byTarget);
    const [express, fastify] = ['nest-express', 'nest-fastify'].map((name) => names.find((key) => key.startsWith(name)));
    const cells = Object.entries(RULES).map(([rule, make]) => {
      const fromOf = make(express, fastify);
      const kept = [];
      const starts = blocks.map((block) => {
        const from = fromOf(block);
        kept.push(block.rounds - from);
        const ratios = block.byTarget[express].cpuUsPerRequest
          .slice(from)
          .map((cost, round) => cost / block.byTarget[fastify].cpuUsPerRequest[from + round]);
        return logMean(ratios);
      });
      const mean = starts.reduce((sum, value) => sum + value, 0) / starts.length;
      const sd = Math.sqrt(starts.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (starts.length - 1));
      const half = (studentQuantile(0.975, starts.length - 1) * sd) / Math.sqrt(starts.length);
      const interval = `${Math.exp(mean).toFixed(2)} (${Math.exp(mean - half).toFixed(2)}–${Math.exp(mean + half).toFixed(2)})`;
      return `${rule}: ${interval}, rounds ${kept.join(',')}`;
    });
    console.log(`${row} ${file.split('/').at(-2)}  ${cells.join(' | ')}`);
  }
}
