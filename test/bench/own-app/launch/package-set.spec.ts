import { packageName, setRefusal } from '../../../../bench/own-app/launch/package-set.js';

const NEST_11 = {
  label: 'nest@11.2.10',
  versions: { '@nestjs/core': '11.2.10', '@nestjs/platform-express': '11.2.10', express: '5.2.1' },
};

describe('packageName', () => {
  it('names the package a specifier loads from, scoped or not, with or without a file inside it', () => {
    expect(packageName('@nestjs/common/constants')).toBe('@nestjs/common');
    expect(packageName('@nestjs/core')).toBe('@nestjs/core');
    expect(packageName('express/lib/router')).toBe('express');
    expect(packageName('fastify')).toBe('fastify');
  });

  it('leaves relative paths, absolute paths and node: builtins alone', () => {
    expect(packageName('./app.module.js')).toBeNull();
    expect(packageName('/srv/app/dist/main.js')).toBeNull();
    expect(packageName('node:fs')).toBeNull();
    expect(packageName('file:///srv/app/dist/main.js')).toBeNull();
  });
});

describe('setRefusal', () => {
  it('runs the app on a Nest 6+ set under a node with module.registerHooks', () => {
    expect(setRefusal(NEST_11, { name: 'node', version: '22.15.0' })).toBeNull();
    expect(setRefusal(NEST_11, { name: 'node', version: '26.10.0' })).toBeNull();
  });

  it('says why not under a node without module.registerHooks', () => {
    expect(setRefusal(NEST_11, { name: 'node', version: '22.14.0' })).toMatch(
      /^node 22\.14\.0 has no module\.registerHooks \(node \^22\.15\.0 \|\| >=23\.5\.0\)/,
    );
    expect(setRefusal(NEST_11, { name: 'node', version: '20.20.2' })).toMatch(
      /^node 20\.20\.2 has no module\.registerHooks/,
    );
  });

  it('says why not on Nest 5, whose adapters are inside @nestjs/core', () => {
    const nest5 = { label: 'nest@5.7.4', versions: { '@nestjs/core': '5.7.4', express: '4.16.3' } };
    expect(setRefusal(nest5, { name: 'node', version: '26.10.0' })).toMatch(
      /^nest@5\.7\.4 has no @nestjs\/platform-express \(its adapters are inside @nestjs\/core\)/,
    );
  });
});
