// The judged Fastify ÷ Express ratios of several runs, one column per host: where the answer moves between hosts.
// node docs/experiments/hosts/judged-by-host.mjs DIR... > table.md (each DIR holds a results.json)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';

/** A run's host: its CPU identity where recorded, else the session (date) with the model name alone. */
function hostOf(results) {
  const cpu = results.environment.host?.cpu;
  if (cpu) return `${cpu.vendor} family ${cpu.family} model ${cpu.model} stepping ${cpu.stepping}, microcode ${cpu.microcode}`;
  return `"${results.environment.cpu.model}", no identity recorded (${results.startedAt.slice(0, 10)})`;
}

const format = (x) => `${x.toFixed(2)}×`;
const columns = process.argv.slice(2).map((dir) => {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const cells = new Map();
  for (const row of analyze(results).ratios.filter((r) => r.judged && r.summary.ci)) {
    const runtime = row.runtime.replace(/\.\d+$/, '');
    const { median, ci } = row.summary;
    cells.set(`${runtime} | ${row.scenario} · ${row.stack}`, `${format(median)} (${format(ci.low)}–${format(ci.high)})`);
  }
  return { dir, host: hostOf(results), date: results.startedAt.slice(0, 16).replace('T', ' '), starts: results.options.starts ?? 1, cells };
});
const keys = [...new Set(columns.flatMap((c) => [...c.cells.keys()]))].filter(
  (key) => columns.filter((c) => c.cells.has(key)).length > 1,
);
console.log(`| runtime | route · stack | ${columns.map((c) => `${c.date} (${c.starts} start${c.starts > 1 ? 's' : ''})`).join(' | ')} |`);
console.log(`| --- | --- |${columns.map(() => ' ---: |').join('')}`);
for (const key of keys) console.log(`| ${key} | ${columns.map((c) => c.cells.get(key) ?? '—').join(' | ')} |`);
console.log();
for (const c of columns) console.log(`- ${c.date}: ${c.dir} — ${c.host}`);
