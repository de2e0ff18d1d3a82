// npm run build, then npm run bench -- --config docs/experiments/transfer-hooks/fastify.config.mjs --runtime node@26 --starts 3 --rounds 6
// Does registering the transfer features (multipart, static files) cost Nest-Fastify on hello? Same build both sides.
import { tmpdir } from 'node:os';

const app = (transfer) => ({
  command: ['node', 'dist/main.fastify.js'],
  cwd: '../../..',
  env: { JWT_SECRET: 'x'.repeat(32), ...(transfer ? { APP_TRANSFER: '1', FILES_DIR: tmpdir() } : {}) },
  group: 'same-build',
});
export default {
  targets: [
    { name: 'fastify-plain', ...app(false) },
    { name: 'fastify-transfer', ...app(true) },
  ],
  scenarios: [{ name: 'hello', path: '/', expect: { status: 200, body: 'Hello World!' } }],
  compare: ['fastify-plain', 'fastify-transfer'],
};
