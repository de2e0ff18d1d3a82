import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import {
  DEFAULT_PORT_ENV,
  configRecord,
  loadConfig,
  validateConfig,
  type Config,
} from '../../../bench/model/config.js';
import { parseOptions } from '../support/options.js';

const WHERE = { source: 'bench.config.json', baseDir: '/srv/app' };

/** A target or scenario as a user wrote it: fields and values unchecked until validateConfig has read them. */
type WrittenEntry = Record<string, unknown>;

/**
 * A config as a user wrote it, before validateConfig (which takes unknown) has checked a field. Its lists read as
 * entries so a test can change one field; a test that writes a wrong shape in a list's place assigns it whole.
 */
interface Written {
  [field: string]: unknown;
  get targets(): WrittenEntry[];
  set targets(value: unknown);
  get scenarios(): WrittenEntry[];
  set scenarios(value: unknown);
}

/** The smallest valid config; each test changes one field of a copy. */
function minimal(): Written {
  return {
    targets: [
      { name: 'express', command: ['node', 'dist/main.js'] },
      { name: 'fastify', command: ['node', 'dist/main.fastify.js'] },
    ],
    scenarios: [{ name: 'users', path: '/users' }],
    compare: ['fastify', 'express'],
  };
}

function valid(change: (config: Written) => void = () => {}): Config {
  const config = minimal();
  change(config);
  return validateConfig(config, WHERE);
}

function refusal(change: (config: Written) => void): string {
  const config = minimal();
  change(config);
  try {
    validateConfig(config, WHERE);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('the config was accepted');
}

describe('a valid config', () => {
  it('fills the defaults: GET, status 200, any content type and body, port in PORT, cwd the config file directory', () => {
    const config = valid();
    expect(config.scenarios[0]).toMatchObject({
      method: 'GET',
      description: 'GET /users',
      headers: {},
      needsToken: false,
      status: 200,
    });
    expect(config.scenarios[0].contentType.test('anything/at-all')).toBe(true);
    expect(config.scenarios[0].checkBody('whatever')).toBeNull();
    expect(config.targets[0]).toMatchObject({
      command: ['node', 'dist/main.js'],
      cwd: '/srv/app',
      env: {},
      portEnv: DEFAULT_PORT_ENV,
      url: null,
      scenarios: null,
    });
    expect(config).toMatchObject({ alsoCompare: [], overhead: [], baseline: null, prepare: null });
  });

  it('puts the compared pair in one group, so it runs back to back, and every other target in its own', () => {
    const config = valid((c) => c.targets.push({ name: 'staging', url: 'http://10.0.0.2:3000' }));
    expect(config.targets.map((t) => t.group)).toEqual(['compared', 'compared', 'staging']);
    expect(valid((c) => (c.targets[0].group = 'mine')).targets[0].group).toBe('mine');
  });

  it('resolves a relative cwd against the config file directory, and keeps an absolute one', () => {
    expect(valid((c) => (c.targets[0].cwd = 'examples/app')).targets[0].cwd).toBe('/srv/app/examples/app');
    expect(valid((c) => (c.targets[0].cwd = '/opt/app')).targets[0].cwd).toBe('/opt/app');
  });

  it('takes env, portEnv and the scenarios a target answers', () => {
    const target = valid((c) => {
      c.scenarios.push({ name: 'health', path: '/health' });
      Object.assign(c.targets[0], { env: { NODE_ENV: 'production' }, portEnv: 'APP_PORT', scenarios: ['health'] });
    }).targets[0];
    expect(target).toMatchObject({ env: { NODE_ENV: 'production' }, portEnv: 'APP_PORT', scenarios: ['health'] });
  });

  it('takes a url target, without its trailing slash', () => {
    const config = valid((c) => c.targets.push({ name: 'staging', url: 'http://127.0.0.2:4300/' }));
    expect(config.targets[2]).toMatchObject({ url: 'http://127.0.0.2:4300', command: null });
  });

  it('matches a content type by media type, with or without parameters, in any case', () => {
    const matcher = valid((c) => (c.scenarios[0].expect = { contentType: 'application/json' })).scenarios[0]
      .contentType;
    expect(matcher.test('application/json')).toBe(true);
    expect(matcher.test('Application/JSON; charset=utf-8')).toBe(true);
    expect(matcher.test('application/json-seq')).toBe(false);
    expect(matcher.test('text/html')).toBe(false);
  });

  it('checks a string body byte for byte', () => {
    const check = valid((c) => (c.scenarios[0].expect = { body: 'Hello World!' })).scenarios[0].checkBody;
    expect(check('Hello World!')).toBeNull();
    expect(check('Hello World')).toBe('expected "Hello World!", got "Hello World"');
  });

  it('checks any other JSON body by value, whatever the key order or spacing', () => {
    const check = valid((c) => (c.scenarios[0].expect = { body: { a: 1, b: [2] } })).scenarios[0].checkBody;
    expect(check('{ "b": [2], "a": 1 }')).toBeNull();
    expect(check('{"a":1}')).toMatch(/^expected \{"a":1,"b":\[2\]\}, got/);
    expect(check('nope')).toMatch(/^body is not JSON/);
  });

  it('sends a JSON request body as JSON, with its content type unless one is given', () => {
    const scenario = valid((c) =>
      Object.assign(c.scenarios[0], { method: 'post', body: { productId: 1 }, expect: { status: 201 } }),
    ).scenarios[0];
    expect(scenario).toMatchObject({
      method: 'POST',
      body: '{"productId":1}',
      headers: { 'content-type': 'application/json' },
      status: 201,
    });
    const given = valid((c) =>
      Object.assign(c.scenarios[0], { method: 'POST', body: 'a=1', headers: { 'Content-Type': 'text/plain' } }),
    ).scenarios[0];
    expect(given).toMatchObject({ body: 'a=1', headers: { 'content-type': 'text/plain' } });
  });

  it('takes the extra ratios, the baseline and, from a .js config, functions', () => {
    const prepare = () => ({ env: { SECRET: 'x' } });
    const body = (text: string) => (text.length > 0 ? null : 'empty');
    const config = valid((c) => {
      c.targets.push({ name: 'base', command: ['./server'] });
      Object.assign(c, { alsoCompare: [['express', 'base']], overhead: [['fastify', 'base']], baseline: 'base' });
      c.prepare = prepare;
      c.scenarios[0].expect = { contentType: /^text\//, body };
    });
    expect(config).toMatchObject({
      alsoCompare: [['express', 'base']],
      overhead: [['fastify', 'base']],
      baseline: 'base',
      prepare,
    });
    expect(config.scenarios[0].checkBody).toBe(body);
    expect(config.scenarios[0].contentType.test('text/plain')).toBe(true);
  });

  it('is what the built-in setup is written in: the Nest pair compared, node:http the baseline', () => {
    expect(BUILTIN_CONFIG).toMatchObject({ source: 'built-in', compare: ['nest-fastify', 'nest-express'] });
    expect(BUILTIN_CONFIG.baseline).toBe('raw-node');
  });
});

describe('a bad config is refused in one line that names the field', () => {
  it.each([
    ['the whole config', (c: Written) => (c.targets = undefined), /^bench\.config\.json: targets: missing$/],
    ['an unknown top-level field', (c: Written) => (c.target = []), /: target: unknown field; known: targets, /],
    ['targets', (c: Written) => (c.targets = []), /: targets: must be a non-empty list$/],
    ['a target', (c: Written) => (c.targets = ['express', c.targets[1]]), /: targets\[0\]: must be an object$/],
    ['a target field', (c: Written) => (c.targets[0].port = 3000), /: targets\[0\]\.port: unknown field/],
    ['a target name', (c: Written) => (c.targets[0].name = ''), /: targets\[0\]\.name: must be a non-empty string$/],
    ['a target name', (c: Written) => (c.targets[0].name = 'my app'), /: targets\[0\]\.name: "my app" is not a name/],
    ['a repeated name', (c: Written) => (c.targets[1].name = 'express'), /: targets: "express" is named twice/],
    [
      'neither command nor url',
      (c: Written) => delete c.targets[0].command,
      /: targets\[0\]: needs a command \(to start\) or a url/,
    ],
    [
      'command and url',
      (c: Written) => (c.targets[0].url = 'http://h:1'),
      /: targets\[0\]: give command or url, not both/,
    ],
    ['command', (c: Written) => (c.targets[0].command = []), /: targets\[0\]\.command: must be a non-empty list$/],
    [
      'command',
      (c: Written) => (c.targets[0].command = 'node main.js'),
      /: targets\[0\]\.command: must be a non-empty/,
    ],
    ['a command part', (c: Written) => (c.targets[0].command = ['node', 1]), /: targets\[0\]\.command\[1\]: must be a/],
    ['cwd', (c: Written) => (c.targets[0].cwd = ''), /: targets\[0\]\.cwd: must be a non-empty string$/],
    ['env', (c: Written) => (c.targets[0].env = ['A=1']), /: targets\[0\]\.env: must be an object of string values$/],
    [
      'an env name',
      (c: Written) => (c.targets[0].env = { 'A-B': '1' }),
      /: targets\[0\]\.env\.A-B: is not an environment/,
    ],
    ['an env value', (c: Written) => (c.targets[0].env = { PORT: 3 }), /: targets\[0\]\.env\.PORT: must be a string$/],
    [
      'portEnv',
      (c: Written) => (c.targets[0].portEnv = '1PORT'),
      /: targets\[0\]\.portEnv: "1PORT" is not an environment/,
    ],
    ['group', (c: Written) => (c.targets[0].group = 3), /: targets\[0\]\.group: must be a non-empty string$/],
    [
      'target scenarios',
      (c: Written) => (c.targets[0].scenarios = []),
      /: targets\[0\]\.scenarios: must be a non-empty/,
    ],
    [
      'a target scenario',
      (c: Written) => (c.targets[0].scenarios = ['orders']),
      /: targets\[0\]\.scenarios\[0\]: no scenario is named "orders"; scenarios: users$/,
    ],
    [
      'url',
      (c: Written) => c.targets.push({ name: 'x', url: 'staging:3000' }),
      /: targets\[2\]\.url: "staging:3000" must be an http:\/\/ URL$/,
    ],
    [
      'url',
      (c: Written) => c.targets.push({ name: 'x', url: 'not a url' }),
      /: targets\[2\]\.url: "not a url" is not a URL/,
    ],
    [
      'url',
      (c: Written) => c.targets.push({ name: 'x', url: 'https://h' }),
      /: targets\[2\]\.url: "https:\/\/h" must be/,
    ],
    [
      'url',
      (c: Written) => c.targets.push({ name: 'x', url: 'http://h/?a=1' }),
      /: targets\[2\]\.url: .* must not have a query or fragment/,
    ],
    [
      'a url target with cwd',
      (c: Written) => c.targets.push({ name: 'x', url: 'http://h', cwd: '.' }),
      /: targets\[2\]\.cwd: only a command target takes it/,
    ],
    [
      'a url target with portEnv',
      (c: Written) => c.targets.push({ name: 'x', url: 'http://h', portEnv: 'PORT' }),
      /: targets\[2\]\.portEnv: only a command target/,
    ],
    ['scenarios', (c: Written) => (c.scenarios = {}), /: scenarios: must be a non-empty list$/],
    ['a scenario field', (c: Written) => (c.scenarios[0].url = '/'), /: scenarios\[0\]\.url: unknown field/],
    ['a scenario name', (c: Written) => delete c.scenarios[0].name, /: scenarios\[0\]\.name: missing$/],
    [
      'a repeated scenario',
      (c: Written) => c.scenarios.push({ name: 'users', path: '/' }),
      /: scenarios: "users" is named twice/,
    ],
    [
      'method',
      (c: Written) => (c.scenarios[0].method = 'FETCH'),
      /: scenarios\[0\]\.method: "FETCH" is not one of GET, /,
    ],
    ['path', (c: Written) => delete c.scenarios[0].path, /: scenarios\[0\]\.path: missing$/],
    ['path', (c: Written) => (c.scenarios[0].path = 'users'), /: scenarios\[0\]\.path: "users" must start with \/$/],
    ['headers', (c: Written) => (c.scenarios[0].headers = { a: 1 }), /: scenarios\[0\]\.headers\.a: must be a string$/],
    ['a GET body', (c: Written) => (c.scenarios[0].body = 'x'), /: scenarios\[0\]\.body: a GET request sends no body$/],
    ['description', (c: Written) => (c.scenarios[0].description = ''), /: scenarios\[0\]\.description: must be a non-/],
    [
      'needsToken',
      (c: Written) => (c.scenarios[0].needsToken = 'yes'),
      /: scenarios\[0\]\.needsToken: must be true or/,
    ],
    ['expect', (c: Written) => (c.scenarios[0].expect = 200), /: scenarios\[0\]\.expect: must be an object$/],
    [
      'an expect field',
      (c: Written) => (c.scenarios[0].expect = { code: 200 }),
      /: scenarios\[0\]\.expect\.code: unknown/,
    ],
    [
      'a status',
      (c: Written) => (c.scenarios[0].expect = { status: '200' }),
      /: scenarios\[0\]\.expect\.status: "200" is not an HTTP status/,
    ],
    [
      'a status',
      (c: Written) => (c.scenarios[0].expect = { status: 99 }),
      /: scenarios\[0\]\.expect\.status: 99 is not/,
    ],
    [
      'a content type',
      (c: Written) => (c.scenarios[0].expect = { contentType: 1 }),
      /: scenarios\[0\]\.expect\.contentType: must be a non-empty string$/,
    ],
    [
      'an expected body',
      (c: Written) => (c.scenarios[0].expect = { body: Symbol('x') }),
      /: scenarios\[0\]\.expect\.body: must be a string, a JSON value or/,
    ],
    ['compare', (c: Written) => delete c.compare, /: compare: missing; name the two targets/],
    ['compare', (c: Written) => (c.compare = ['fastify']), /: compare: must be a list of two target names$/],
    [
      'compare',
      (c: Written) => (c.compare = ['fastify', 'koa']),
      /: compare\[1\]: no target is named "koa"; targets: /,
    ],
    ['compare', (c: Written) => (c.compare = ['fastify', 'fastify']), /: compare: compares "fastify" with itself$/],
    ['alsoCompare', (c: Written) => (c.alsoCompare = 'express'), /: alsoCompare: must be a list of \[numerator, /],
    ['an overhead pair', (c: Written) => (c.overhead = [['express']]), /: overhead\[0\]: must be a list of two target/],
    ['baseline', (c: Written) => (c.baseline = 'node'), /: baseline: no target is named "node"/],
    ['prepare', (c: Written) => (c.prepare = 'npm run build'), /: prepare: must be a function \(a \.js config\)$/],
  ])('%s', (_field, change, message) => {
    expect(refusal(change)).toMatch(message);
  });

  it('refuses a config that is not an object', () => {
    expect(() => validateConfig([], WHERE)).toThrow(/^bench\.config\.json: must be an object$/);
  });
});

describe('config files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('reads JSON, resolving cwd against the file directory', async () => {
    const file = write('bench.config.json', JSON.stringify(minimal()));
    const config = await loadConfig(file);
    expect(config.source).toBe(file);
    expect(config.targets[0].cwd).toBe(dir);
  });

  it('reads the default export of a .mjs or .js module', async () => {
    const text = `export default ${JSON.stringify(minimal())};`;
    await expect(loadConfig(write('bench.config.mjs', text))).resolves.toMatchObject({
      compare: ['fastify', 'express'],
    });
    await expect(loadConfig(write('bench.config.js', text))).resolves.toMatchObject({
      compare: ['fastify', 'express'],
    });
  });

  it.each([
    [
      'another extension',
      'bench.config.yaml',
      'targets: []',
      /^--config .*bench\.config\.yaml: use a \.json, \.js, \.mjs file$/,
    ],
    ['broken JSON', 'broken.json', '{ "targets": [', /broken\.json: not valid JSON: /],
    [
      'a module that throws',
      'throws.mjs',
      'throw new Error("boom");',
      /^--config .*throws\.mjs: cannot load it: boom$/,
    ],
    ['a module without a default export', 'empty.mjs', 'export const x = 1;', /empty\.mjs: must be an object$/],
  ])('refuses %s in one line', async (_what, name, text, message) => {
    const error = await loadConfig(write(name, text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses a file that does not exist', async () => {
    await expect(loadConfig(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read it \(ENOENT\)$/);
  });
});

describe('flags against a config', () => {
  const config = valid((c) => c.scenarios.push({ name: 'health', path: '/health' }));

  it('choose from its targets and scenarios, in its order', () => {
    expect(parseOptions([], config)).toMatchObject({ targets: ['express', 'fastify'], scenarios: ['users', 'health'] });
    expect(parseOptions(['--scenarios', 'health,users'], config).scenarios).toEqual(['users', 'health']);
  });

  it('refuse names the config does not have', () => {
    expect(() => parseOptions(['--targets', 'nest-express'], config)).toThrow(
      /^--targets: unknown name "nest-express"; use a comma-separated subset of express,fastify$/,
    );
  });
});

describe("a scenario's own load", () => {
  it('takes connections, a shortest run, and either closes after some requests or paces them', () => {
    const config = valid((c) => {
      c.scenarios[0].load = { connections: 4, durationSec: 2.5 };
      c.scenarios.push({ name: 'idle', path: '/', load: { connections: 1000, connectionRate: 0.5 } });
      c.scenarios.push({ name: 'close', path: '/', load: { requestsPerConnection: 10 } });
    });
    expect(config.scenarios.map((scenario) => scenario.load)).toEqual([
      { connections: 4, durationSec: 2.5, requestsPerConnection: null, connectionRate: null },
      { connections: 1000, durationSec: 0, requestsPerConnection: null, connectionRate: 0.5 },
      { connections: null, durationSec: 0, requestsPerConnection: 10, connectionRate: null },
    ]);
    expect(valid().scenarios[0].load).toBeNull();
  });

  it('refuses connections that are not a whole number above 0, and an unknown field', () => {
    expect(refusal((c) => (c.scenarios[0].load = { connections: 2.5 }))).toBe(
      'bench.config.json: scenarios[0].load.connections: 2.5 is not a whole number above 0',
    );
    expect(refusal((c) => (c.scenarios[0].load = { durationSec: 0 }))).toBe(
      'bench.config.json: scenarios[0].load.durationSec: 0 is not a number above 0',
    );
    expect(refusal((c) => (c.scenarios[0].load = { rate: 1 }))).toMatch(/scenarios\[0\]\.load\.rate: unknown field/);
  });

  it('refuses closing after some requests and pacing them at once', () => {
    expect(refusal((c) => (c.scenarios[0].load = { requestsPerConnection: 10, connectionRate: 1 }))).toBe(
      'bench.config.json: scenarios[0].load: give requestsPerConnection or connectionRate, not both',
    );
  });
});

describe("the metric a scenario's ratios divide", () => {
  it('is req/s on a closed loop and CPU per request on a paced load, recorded with the scenario', () => {
    const config = valid((c) => {
      c.scenarios.push({ name: 'idle', path: '/', load: { connections: 1000, connectionRate: 0.5 } });
    });
    expect(config.scenarios.map((scenario) => scenario.metric)).toEqual(['req/s', 'cpu-per-request']);
    expect(configRecord(config).scenarios.map((scenario) => scenario.metric)).toEqual(['req/s', 'cpu-per-request']);
  });

  it('takes a metric named in the config', () => {
    const config = valid((c) => (c.scenarios[0].metric = 'cpu-per-request'));
    expect(config.scenarios[0].metric).toBe('cpu-per-request');
  });

  it('refuses req/s on a paced load, whose req/s is its pace, and an unknown metric', () => {
    expect(
      refusal((c) => {
        c.scenarios[0].load = { connections: 100, connectionRate: 1 };
        c.scenarios[0].metric = 'req/s';
      }),
    ).toBe(
      'bench.config.json: scenarios[0].metric: a paced load (connectionRate) sets req/s on both sides alike: give cpu-per-request',
    );
    expect(refusal((c) => (c.scenarios[0].metric = 'latency'))).toBe(
      'bench.config.json: scenarios[0].metric: "latency" is not one of req/s, cpu-per-request',
    );
  });

  it('is CPU per request on the built-in idle profiles and req/s on every other built-in scenario', () => {
    const paced = BUILTIN_CONFIG.scenarios.filter((scenario) => scenario.metric === 'cpu-per-request');
    expect(paced.map((scenario) => scenario.name)).toEqual(['idle-1k', 'idle-4k']);
  });
});
