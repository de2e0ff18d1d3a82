// The judged Fastify ÷ Express ratios of runs on several hosts, one column per host: where the answer moves between
// hosts. node docs/experiments/hosts/judged-by-host.mjs 'HOST=DIR[,DIR…]'… (each DIR holds a results.json); a route
// on one host only is left out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';

/** A run's CPU identity where recorded, else its model name. */
function identityOf(results) {
  const cpu = results.environment.host?.cpu;
  if (!cpu) return `"${results.environment.cpu.model}", no identity recorded`;
  return `${cpu.vendor} family ${cpu.family} model ${cpu.model} stepping ${cpu.stepping}, microcode ${cpu.microcode}`;
}

/** node@26.10.0 → Node 26; bun@1.4.5 → bun 1.4 */
const runtimeName = (key) => {
  const [name, version] = key.split('@');
  return name === 'node' ? `Node ${version.split('.')[0]}` : `${name} ${version.split('.').slice(0, 2).join('.')}`;
};
const format = (x) => `${x.toFixed(2)}`;
const hosts = process.argv.slice(2).map((arg) => {
  const [label, dirs] = arg.split('=');
  /** @type {Map<string, string[]>} route key → each run's estimate */
  const cells = new Map();
  const runs = dirs.split(',').map((dir) => {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    for (const row of analyze(results).ratios.filter((r) => r.judged && r.summary.ci)) {
      const key = `${runtimeName(row.runtime)} | ${row.scenario} · ${row.stack}`;
      cells.set(key, [...(cells.get(key) ?? []), row.summary.median]);
    }
    const starts = results.options.starts ?? 1;
    return `${dir} (${results.startedAt.slice(0, 16).replace('T', ' ')}, ${starts} start${starts > 1 ? 's' : ''}; ${identityOf(results)})`;
  });
  return { label, cells, runs };
});
const geometricMean = (xs) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
const keys = [...new Set(hosts.flatMap((h) => [...h.cells.keys()]))].filter(
  (key) => hosts.filter((h) => h.cells.has(key)).length > 1,
);
console.log(`| runtime | route · stack | ${hosts.map((h) => h.label).join(' | ')} | highest ÷ lowest host |`);
console.log(`| --- | --- |${hosts.map(() => ' ---: |').join('')} ---: |`);
for (const key of keys) {
  const perHost = hosts.map((h) => h.cells.get(key) ?? null);
  const means = perHost.filter((xs) => xs !== null).map(geometricMean);
  const cells = perHost.map((xs) => (xs ? xs.map(format).join(' / ') : '—'));
  console.log(`| ${key} | ${cells.join(' | ')} | ${format(Math.max(...means) / Math.min(...means))} |`);
}
console.log();
for (const h of hosts) for (const run of h.runs) console.log(`- ${h.label}: ${run}`);
