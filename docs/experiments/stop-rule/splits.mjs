// The variance split of the Fastify ÷ Express log ratio per row, from default runs' results: the σ of a start's own
// level and of a round about it (one-way random effects, bench/analysis/starts.js), pooled over the runs given as the
// root mean square of each run's estimate.
//
//   node docs/experiments/stop-rule/splits.mjs results/…/default-*/results.json
import { readFileSync } from 'node:fs';
import { varianceSplit } from '../../../bench/analysis/starts.js';

const COMPARED = ['nest-express', 'nest-fastify'];
/** @type {Map<string, Array<{ between: number, within: number }>>} */
const splits = new Map();
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Map<string, Record<string, number>>} */
  const rounds = new Map();
  for (const run of results.runs) {
    if (run.status !== 'ok' || !COMPARED.includes(run.target)) continue;
    const key = [run.scenario, run.stack, run.start, run.round].join('\u0000');
    rounds.set(key, { ...rounds.get(key), [run.target]: run.load.rps });
  }
  /** @type {Map<string, { values: number[], starts: number[] }>} */
  const rows = new Map();
  for (const [key, rps] of rounds) {
    if (!rps['nest-express'] || !rps['nest-fastify']) continue;
    const [scenario, stack, start] = key.split('\u0000');
    const row = rows.get(`${scenario} · ${stack}`) ?? { values: [], starts: [] };
    row.values.push(rps['nest-fastify'] / rps['nest-express']);
    row.starts.push(Number(start));
    rows.set(`${scenario} · ${stack}`, row);
  }
  for (const [name, { values, starts }] of rows) {
    const split = varianceSplit(values, starts);
    if (split) splits.set(name, [...(splits.get(name) ?? []), split]);
  }
}
const rms = (values) => Math.sqrt(values.reduce((sum, value) => sum + value, 0) / values.length);
console.log('| row | runs | σ between starts | σ within a start |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, list] of splits)
  console.log(
    `| ${name} | ${list.length} | ${rms(list.map((s) => s.between)).toFixed(3)} | ${rms(list.map((s) => s.within)).toFixed(3)} |`,
  );
