import { layerOf, layerTicks, qualifiedName } from '../../../bench/profile/layers.js';

describe('the layer of a frame', () => {
  it.each([
    ['void node::StreamBase::JSMethod<&node::StreamBase::Writev>(v8::FunctionCallbackInfo<v8::Value> const&)', 'node'],
    ['llhttp__internal_execute', 'node'],
    ['uv__io_poll', 'node'],
    ['Cr_z_deflate_slow', 'node'],
    ['Builtin: LoadIC_Megamorphic', 'v8'],
    [
      'v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*, v8::internal::Handle<v8::internal::JSObject>)',
      'v8',
    ],
    [
      'v8::internal::LookupIterator::State v8::internal::LookupIterator::LookupInRegularHolder<false>(v8::internal::Map)',
      'v8',
    ],
    ['writev@@GLIBC_2.2.5', 'rest'],
    ['libc.so.6 (no symbol)', 'rest'],
    ['std::_Rb_tree<node::Parser*, node::Parser*>::_M_insert_unique(node::Parser* const&)', 'rest'],
  ])('native %s is %s', (name, layer) => {
    expect(layerOf({ name, group: 'native' })).toBe(layer);
  });

  it.each([
    ['parserOnIncoming node:_http_server:1026:26', 'node', 'node'],
    ['next router/index.js:189:17', 'express', 'framework'],
    ['routeHandler fastify/lib/route.js:450:24', 'fastify', 'framework'],
    ['(anonymous) @nestjs/core/router/router-execution-context.js:75:16', 'nestjs', 'nest'],
    ['getHello dist/app.controller.js:20:13', 'app', 'app'],
    ['query typeorm/query-builder/SelectQueryBuilder.js:10:1', 'orm-db', 'packages'],
    ['processChunkSync node:zlib:100:4', 'compression', 'node'],
    ['compression compression/index.js:60:3', 'compression', 'packages'],
  ])('JavaScript %s (group %s) is %s', (name, group, layer) => {
    expect(layerOf({ name, group })).toBe(layer);
  });

  it('puts the collector in V8 and idle waiting in no layer', () => {
    expect(layerOf({ name: 'libc.so.6 (no symbol)', group: 'gc' })).toBe('v8');
    expect(layerOf({ name: 'epoll_pwait@@GLIBC_2.6', group: 'idle' })).toBeNull();
  });

  it('reads a C++ symbol’s function past its return type, templates and parameters', () => {
    expect(
      qualifiedName('unsigned long v8::internal::StringTable::Data::Try<unsigned char>(v8::internal::Isolate*)'),
    ).toBe('v8::internal::StringTable::Data::Try');
  });
});

describe('ticks by layer', () => {
  it('shares the busy ticks only, every layer listed', () => {
    const layers = layerTicks([
      { name: 'Builtin: LoadIC', group: 'native', selfTicks: 30 },
      { name: 'emit node:events:1:1', group: 'node', selfTicks: 10 },
      { name: 'epoll_wait', group: 'idle', selfTicks: 60 },
    ]);
    expect(layers.map((l) => l.id)).toEqual(['node', 'framework', 'nest', 'app', 'packages', 'v8', 'rest']);
    expect(layers.find((l) => l.id === 'v8')).toEqual({ id: 'v8', ticks: 30, share: 0.75 });
    expect(layers.find((l) => l.id === 'node')?.share).toBe(0.25);
  });
});
