import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeTicks, type Preprocessed } from '../../../bench/profile/tick-analysis.js';
import { createScriptClassifier, packageGroupsOf } from '../../../bench/profile/groups.js';
import { PROJECT_ROOT } from '../../../bench/run/targets.js';

// Every 10th tick of real nest-express and nest-fastify `products` profiles (node --prof-process --preprocess output),
// with the code entries those ticks reference and the project directory written as <root>.
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'nest-products-ticks.json');
const root = PROJECT_ROOT.replace(/\/$/, '');
const recorded: Record<string, Preprocessed> = JSON.parse(readFileSync(FIXTURE, 'utf8').split('<root>').join(root));

type Frame = { name: string; group: string };
function framesOf(name: string): Frame[] {
  return analyzeTicks(recorded[name]).functions.map((f) => ({ name: f.name, group: f.group }));
}
const inScripts = (frames: Frame[], pattern: RegExp) => frames.filter((f) => pattern.test(f.name));

describe('package groups from the installed dependency graph', () => {
  const owner = packageGroupsOf(root);
  const groupOf = (name: string) => owner.get(path.join(root, 'node_modules', name));

  it('gives each adapter its own dependencies', () => {
    expect(['express', 'router', 'body-parser', 'finalhandler'].map(groupOf)).toEqual([
      'express',
      'express',
      'express',
      'express',
    ]);
    expect(['fastify', 'find-my-way', 'avvio', 'light-my-request', 'fast-json-stringify'].map(groupOf)).toEqual(
      Array(5).fill('fastify'),
    );
  });

  it('keeps adapter packages out of @nestjs/* even though the Nest platforms depend on them', () => {
    expect(groupOf('@nestjs/platform-express')).toBe('nestjs');
    expect(groupOf('@nestjs/platform-fastify')).toBe('nestjs');
    expect(groupOf('express')).toBe('express');
    expect(groupOf('find-my-way')).toBe('fastify');
  });

  it("puts Nest's peers with Nest, and the ORM with the database drivers", () => {
    expect(['@nestjs/core', 'rxjs', 'class-validator', 'reflect-metadata'].map(groupOf)).toEqual(
      Array(4).fill('nestjs'),
    );
    expect(['typeorm', 'mysql2', 'sql.js', 'named-placeholders'].map(groupOf)).toEqual(Array(4).fill('orm-db'));
  });
});

describe("the production stack's middleware groups", () => {
  // A project laid out as npm installs the production stack: package.json files only, which is all the graph reads.
  const MANIFESTS: Record<string, Record<string, Record<string, string>>> = {
    express: { dependencies: { vary: '1', debug: '4' } },
    fastify: { dependencies: { pino: '9', 'process-warning': '4' } },
    '@nestjs/common': { peerDependencies: { 'class-transformer': '0', 'class-validator': '0' } },
    helmet: {},
    '@fastify/helmet': { dependencies: { helmet: '8', 'fastify-plugin': '5' } },
    compression: { dependencies: { vary: '1', 'on-headers': '1' } },
    '@fastify/compress': { dependencies: { minipass: '7', 'fastify-plugin': '5' } },
    'nestjs-pino': { peerDependencies: { 'pino-http': '10' } },
    'pino-http': { dependencies: { pino: '9' } },
    pino: { dependencies: { 'sonic-boom': '4', 'process-warning': '4' } },
    'class-transformer': {},
    'class-validator': {},
    ...Object.fromEntries(
      ['vary', 'debug', 'process-warning', 'fastify-plugin', 'on-headers', 'minipass', 'sonic-boom'].map((name) => [
        name,
        {},
      ]),
    ),
  };
  let root: string;
  let groupOf: (name: string) => string | undefined;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'groups-'));
    for (const [name, manifest] of Object.entries(MANIFESTS)) {
      const dir = path.join(root, 'node_modules', name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
    }
    const owner = packageGroupsOf(root);
    groupOf = (name) => owner.get(path.join(root, 'node_modules', name));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("gives helmet and compression both adapters' packages, with what only they depend on", () => {
    expect(['helmet', '@fastify/helmet'].map((name) => groupOf(name))).toEqual(['helmet', 'helmet']);
    expect(['compression', '@fastify/compress', 'on-headers', 'minipass'].map((name) => groupOf(name))).toEqual(
      Array(4).fill('compression'),
    );
  });

  it('keeps pino with the logger although fastify depends on it', () => {
    expect(['pino', 'pino-http', 'nestjs-pino', 'sonic-boom'].map((name) => groupOf(name))).toEqual(
      Array(4).fill('logger'),
    );
  });

  it('keeps class-transformer apart from Nest, whose peer it is, and leaves class-validator with Nest', () => {
    expect(groupOf('class-transformer')).toBe('class-transformer');
    expect(groupOf('class-validator')).toBe('nestjs');
  });

  it('leaves a package an adapter also depends on with the adapter', () => {
    expect([groupOf('vary'), groupOf('process-warning')]).toEqual(['express', 'fastify']);
  });

  it("counts node's zlib module for compression, other node modules for node", () => {
    const classify = createScriptClassifier();
    expect(classify('node:zlib')).toBe('compression');
    expect(classify('node:internal/streams/transform')).toBe('node');
    expect(classify(`${root}/node_modules/pino/lib/tools.js`)).toBe('logger');
  });

  it("counts Deno's runtime code, its node: modules among it, for node", () => {
    const classify = createScriptClassifier();
    expect(classify('ext:deno_node/internal/buffer.mjs')).toBe('node');
    expect(classify('ext:deno_http/00_serve.ts')).toBe('node');
  });
});

describe('group classification of recorded profiles', () => {
  const express = framesOf('nest-express-products');
  const fastify = framesOf('nest-fastify-products');

  it('classifies frames by the package their script belongs to', () => {
    for (const [scripts, group] of [
      [/ (express|router|body-parser)\//, 'express'],
      [/ (fastify|find-my-way|avvio|light-my-request)\//, 'fastify'],
      [/ (@nestjs\/[\w-]+|rxjs)\//, 'nestjs'],
      [/ (typeorm|sql\.js)\//, 'orm-db'],
      [/ node:(?!:)/, 'node'],
      [/ dist\//, 'app'],
    ] as const) {
      // each package has frames in the recorded profiles, so a classification cannot pass on none
      const frames = inScripts([...express, ...fastify], scripts);
      expect(frames.length, `frames of ${group}`).toBeGreaterThan(0);
      expect(frames.filter((f) => f.group !== group)).toEqual([]);
    }
  });

  it('finds each adapter only in its own profile', () => {
    expect(express.some((f) => f.group === 'express')).toBe(true);
    expect(express.some((f) => f.group === 'fastify')).toBe(false);
    expect(fastify.some((f) => f.group === 'fastify')).toBe(true);
    expect(fastify.some((f) => f.group === 'express')).toBe(false);
  });

  it('counts WebAssembly without a script for the package that called it (sql.js)', () => {
    const wasm = inScripts([...express, ...fastify], /wasm-function\[\d+\]$/);
    expect(wasm.length).toBeGreaterThan(0);
    expect(wasm.every((f) => f.group === 'orm-db')).toBe(true);
  });

  it("puts C++ and builtins with V8 & native, the collector's frames with GC, the event-loop wait with idle", () => {
    const all = [...express, ...fastify];
    const builtins = inScripts(all, /^Builtin: /);
    expect(builtins.length).toBeGreaterThan(0);
    expect(builtins.filter((f) => f.group !== 'native' && f.group !== 'gc')).toEqual([]);
    expect(inScripts(all, /^v8::internal::(Scavenger|ScavengerCollector|Heap)::/).some((f) => f.group === 'gc')).toBe(
      true,
    );
    const waits = inScripts(all, /^epoll_pwait/);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.filter((f) => f.group !== 'idle')).toEqual([]);
  });

  it('folds bytecode handlers into the interpreted function they run', () => {
    const recordedHandlers = recorded['nest-express-products'].code.filter((c) => c.kind === 'BytecodeHandler');
    expect(recordedHandlers.length).toBeGreaterThan(0);
    expect(express.some((f) => f.name.startsWith('BytecodeHandler:'))).toBe(false);
  });

  it('names a bytecode handler with no function found above it by its bytecode, not as unaccounted', () => {
    const code = [{ name: 'Construct', type: 'CODE', kind: 'BytecodeHandler' }];
    const analysis = analyzeTicks({ code, ticks: [{ tm: 1, vm: 0, s: [0, 12] }] });
    expect(analysis.unaccounted).toBe(0);
    expect(analysis.functions).toMatchObject([{ name: 'BytecodeHandler: Construct', group: 'native', selfTicks: 1 }]);
  });

  it("names a tick sampled with no pc by V8's state, apart from unaccounted pcs", () => {
    const analysis = analyzeTicks({
      code: [],
      ticks: [
        { tm: 1, vm: 5, s: [-1, 0] },
        { tm: 2, vm: 0, s: [-1, 0x7f00_0000_1000] },
      ],
    });
    expect(analysis).toMatchObject({ noPc: 1, unaccounted: 1, unaccountedShare: 0.5 });
    expect(analysis.functions.map((f) => f.name).sort()).toEqual(['(no pc sampled, V8 state OTHER)', '(unaccounted)']);
  });

  it('charges native code to the JavaScript group that called it', () => {
    const analysis = analyzeTicks(recorded['nest-express-products']);
    const self = new Map(analysis.groups.map((g) => [g.id, g.selfTicks]));
    const charged = new Map(analysis.callerGroups.map((g) => [g.id, g.ticks]));
    expect(charged.get('native') ?? 0).toBeLessThan(self.get('native') ?? 0);
    expect(charged.get('express') ?? 0).toBeGreaterThan(self.get('express') ?? 0);
    expect([...charged.values()].reduce((a, b) => a + b, 0)).toBe(analysis.ticks);
  });

  it('classifies a script URL once per project, whether a path (CommonJS) or file:// (ES module)', () => {
    const classify = createScriptClassifier();
    expect(classify(`${root}/node_modules/express/lib/router/index.js`)).toBe('express');
    expect(classify(`file://${root}/node_modules/@nestjs/core/router/router-proxy.js`)).toBe('nestjs');
    expect(classify(`file://${root}/dist/main.js`)).toBe('app');
    expect(classify('node:internal/streams/writable')).toBe('node');
    expect(classify('')).toBeNull();
  });
});
