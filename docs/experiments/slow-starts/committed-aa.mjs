// Issue 42 §5, from the runs already committed: in every A/A run (one build on both sides), each start's hello block,
// each server's own CPU µs per request over its kept rounds (steadyBlocks), its heap and GC before the rounds. A start
// whose two servers differ by more than 1.2× is flagged: is the slow one dearer per request by its own CPU (the
// process), or only served less (the scheduler)? Is it slow for the whole start (the same processes' catalog block), or
// only in its hello block's kept rounds (both series, round by round)? And do runs that prime the headline (results.primes:
// each server answers 30,000 requests alone before the rounds) have such starts at all?
//
//   node docs/experiments/slow-starts/committed-aa.mjs $(find results/reference -path '*aa*' -name results.json | sort)
import { readFileSync } from 'node:fs';

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
};
/** a block's a ÷ b: each server's median CPU µs per request over its kept rounds */
const keptRatio = (block) => {
  const [a, b] = Object.keys(block.byTarget)
    .sort()
    .map((name) => median(block.byTarget[name].cpuUsPerRequest.slice(block.steadyFrom ?? 0)));
  return a / b;
};
let blocks = 0;
const flagged = [];
/** @type {Record<'primed' | 'unprimed', number[]>} every hello block's a ÷ b */
const byPriming = { primed: [], unprimed: [] };
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  const priming = results.primes?.some((prime) => prime.requests > 0) ? 'primed' : 'unprimed';
  for (const block of (results.steadyBlocks ?? []).filter((b) => b.scenario === 'hello')) {
    blocks++;
    byPriming[priming].push(keptRatio(block));
    const names = Object.keys(block.byTarget).sort();
    const servers = names.map((name) => {
      const runs = results.runs.filter(
        (run) => run.scenario === 'hello' && run.start === block.start && run.target === name,
      );
      const heaps = runs.map((run) => run.state?.heapBefore).filter(Boolean);
      const minorGcUs = runs.map(
        (run) => ((run.state?.during?.pauses?.minor?.totalMs ?? 0) * 1000) / Math.max(1, run.load?.requests ?? 1),
      );
      const bootedAt = results.started.findIndex((s) => s.target === name && s.start === block.start);
      return {
        name,
        cpu: median(block.byTarget[name].cpuUsPerRequest.slice(block.steadyFrom ?? 0)),
        heapUsedMiB: median(heaps.map((h) => h.heapUsedMiB)),
        rssMiB: median(heaps.map((h) => h.rssMiB)),
        minorGcUs: median(minorGcUs),
        bootedAt,
      };
    });
    const ratio = servers[0].cpu / servers[1].cpu;
    const catalog = results.steadyBlocks.find((b) => b.scenario === 'catalog' && b.start === block.start);
    if (Math.abs(Math.log(ratio)) > Math.log(1.2)) flagged.push({ file, block, ratio, servers, catalog });
  }
}
console.log(
  `${blocks} hello blocks in A/A runs; ${flagged.length} with one server more than 1.2× the other's CPU per request`,
);
console.log('| run | start | a ÷ b | server | µs/req | heap used MiB | RSS MiB | minor GC µs/req | booted |');
console.log('| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |');
for (const { file, block, ratio, servers } of flagged) {
  const first = Math.min(...servers.map((s) => s.bootedAt));
  for (const s of servers)
    console.log(
      `| ${file.split('/').slice(-3, -1).join('/')} | ${block.start} | ${ratio.toFixed(2)} | ${s.name} | ${s.cpu.toFixed(1)} | ${s.heapUsedMiB.toFixed(0)} | ${s.rssMiB.toFixed(0)} | ${s.minorGcUs.toFixed(2)} | ${s.bootedAt === first ? 'first' : 'second'} |`,
    );
}
console.log(
  "\nThe flagged starts round by round: each server's CPU µs per request on hello, the kept rounds in [ ], and",
);
console.log("the same two processes' catalog block in that start.");
for (const { file, block, ratio, catalog } of flagged) {
  console.log(`\n${file.split('/').slice(-3, -1).join('/')} start ${block.start}: hello ${ratio.toFixed(2)}`);
  for (const [name, target] of Object.entries(block.byTarget).sort()) {
    const rounds = target.cpuUsPerRequest.map((us) => us.toFixed(0));
    const from = block.steadyFrom ?? 0;
    console.log(`  ${name}: ${rounds.slice(0, from).join(' ')} [${rounds.slice(from).join(' ')}]`);
  }
  console.log(`  catalog, same start: ${catalog ? keptRatio(catalog).toFixed(2) : 'not measured'}`);
}
console.log('\nEvery hello block by whether its run primed the headline:');
console.log('| runs | hello blocks | beyond 1.1× | beyond 1.2× | σ of log a ÷ b | range |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
for (const [priming, ratios] of Object.entries(byPriming)) {
  const logs = ratios.map(Math.log);
  const mean = logs.reduce((sum, x) => sum + x, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (logs.length - 1));
  const beyond = (bound) => logs.filter((x) => Math.abs(x) > Math.log(bound)).length;
  console.log(
    `| ${priming} | ${ratios.length} | ${beyond(1.1)} | ${beyond(1.2)} | ${sd.toFixed(3)} | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} |`,
  );
}
