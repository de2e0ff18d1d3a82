// Issue 42 §5, from the runs already committed: in every A/A run (one build on both sides), each start's hello block,
// each server's own CPU µs per request over its kept rounds (steadyBlocks), its heap and GC before the rounds. A start
// whose two servers differ by more than 1.2× is flagged: is the slow one dearer per request by its own CPU (the
// process), or only served less (the scheduler)?
//
//   node docs/experiments/slow-starts/committed-aa.mjs $(find results/reference -path '*aa*' -name results.json)
import { readFileSync } from 'node:fs';

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
};
let blocks = 0;
const flagged = [];
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  for (const block of (results.steadyBlocks ?? []).filter((b) => b.scenario === 'hello')) {
    blocks++;
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
    if (Math.abs(Math.log(ratio)) > Math.log(1.2)) flagged.push({ file, block, ratio, servers });
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
