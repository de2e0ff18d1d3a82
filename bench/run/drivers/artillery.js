// @ts-check
// Artillery (from npm, installed on first use: artillery-install.js), spawned per run with a script the bench writes.
// A JavaScript generator: fine for routes at a few thousand requests a second, the bottleneck for a fast hello (its
// runs say so, from the CPU it reports). Its script runs unchanged spread over many workers against a deployed app;
// each block's is kept in the results folder with that command.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedArtillery } from './artillery-install.js';
import { fromArtilleryReport } from './artillery-report.js';
import { PROCESSOR_FILE, artilleryScript, distributedCommand } from './artillery-script.js';
import { lastLine, refusePacing, runGenerator, wholeSeconds } from './generator-process.js';
import { expectedStatuses } from './statuses.js';
import { runTag } from '../unique-values.js';

/** @typedef {import('./registry.js').Driver} Driver */

const PROCESSOR = fileURLToPath(new URL(`./${PROCESSOR_FILE}`, import.meta.url));
/** Where a run's folder keeps the scripts, with COMMANDS_FILE saying how to run them. */
const KEPT_DIR = 'artillery';
const COMMANDS_FILE = 'commands.txt';
/** No reports to Artillery's servers from a measurement. */
const ARTILLERY_ENV = { ARTILLERY_DISABLE_TELEMETRY: 'true' };

/** @type {Driver} */
const driver = {
  name: 'artillery',
  sendsMixes: true,
  async checkAvailable(log = () => {}) {
    await installedArtillery(log);
  },
  async version() {
    return `artillery ${(await installedArtillery(() => {})).version}`;
  },
  async run(request) {
    refusePacing('artillery', request);
    if (request.pipelining > 1)
      throw new Error('artillery sends one request at a time on a connection; use --driver wrk or autocannon');
    const { bin } = await installedArtillery(() => {});
    const dir = await mkdtemp(join(tmpdir(), 'bench-artillery-'));
    try {
      const script = artilleryScript(request, runTag());
      const scriptFile = join(dir, 'script.json');
      const reportFile = join(dir, 'report.json');
      await writeFile(scriptFile, `${JSON.stringify(script, null, 2)}\n`);
      await copyFile(PROCESSOR, join(dir, PROCESSOR_FILE));
      // whole seconds: no interrupt at the run's length, which Artillery's start-up would cut short
      const output = await runGenerator(process.execPath, [bin, 'run', '--quiet', '--output', reportFile, scriptFile], {
        durationSec: wholeSeconds(request.durationSec),
        cpu: request.cpu,
        env: ARTILLERY_ENV,
        signal: request.signal,
      });
      if (output.code !== 0)
        throw new Error(`artillery exited with code ${output.code}: ${lastLine(output.stderr || output.stdout)}`);
      const report = JSON.parse(await readFile(reportFile, 'utf8'));
      const expected = request.sequence ? expectedStatuses(request.sequence) : [request.expectedStatus];
      const load = fromArtilleryReport(report, expected, { durationSec: request.durationSec, cpuSec: output.cpuSec });
      if (request.keep) await keepScript(request.keep, script);
      return { ...load, warnings: [] };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/**
 * The script in the run's folder (the last one this block and server ran), its processor beside it, and in
 * COMMANDS_FILE how to run it here and spread over many workers.
 * @param {{ dir: string, label: string }} keep @param {object} script
 */
async function keepScript({ dir, label }, script) {
  const kept = join(dir, KEPT_DIR);
  await mkdir(kept, { recursive: true });
  const name = `${label.replace(/[^\w.@-]+/g, '-')}.json`;
  await writeFile(join(kept, name), `${JSON.stringify(script, null, 2)}\n`);
  await copyFile(PROCESSOR, join(kept, PROCESSOR_FILE));
  const commandsFile = join(kept, COMMANDS_FILE);
  const known = await readFile(commandsFile, 'utf8').catch(() => COMMANDS_HEADER);
  const line = `${label}:\n  npx artillery run ${name}\n  ${distributedCommand(name)}\n`;
  if (!known.includes(line)) await writeFile(commandsFile, known + line);
}

const COMMANDS_HEADER = `Each script is the bench's closed loop over one verified scenario: one virtual user per connection, sending its
requests back to back for the run's length (config.variables.benchRunMs). The first command runs it against the server
it was written for; the second spreads it over 10 workers on AWS Fargate against a deployed app (--target replaces the
script's; each worker holds the script's connections). See docs/ci.md, "Past one machine".

`;

export default driver;
