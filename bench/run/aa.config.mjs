// An A/A run: the same Nest-Express build on both sides of the ratio, as a check that the run's pairing cancels the
// host's interference (Bulej et al., ICPE 2020): the ratio should read 1.00 and its interval cover 1 as often as its
// confidence says. `npm run build` first; then
//   npm run bench -- --config bench/run/aa.config.mjs
const TEXT = /^text\/(plain|html)(;|$)/;
const JSON_TYPE = /^application\/json(;|$)/;
const expressApp = {
  command: ['node', 'dist/main.js'],
  cwd: '../..',
  env: { JWT_SECRET: 'an-a-a-run-signs-no-token-it-checks' },
  group: 'same-build',
};

export default {
  targets: [
    { name: 'nest-express-a', ...expressApp },
    { name: 'nest-express-b', ...expressApp },
  ],
  scenarios: [
    { name: 'hello', path: '/', expect: { status: 200, contentType: TEXT, body: 'Hello World!' } },
    { name: 'catalog', path: '/catalog?page=3&pageSize=50', expect: { status: 200, contentType: JSON_TYPE } },
  ],
  compare: ['nest-express-b', 'nest-express-a'],
};
