// @ts-check
/**
 * The layer a tick's own code (its leaf frame) belongs to, for CPU per request by layer: node core (its JavaScript
 * and C++: http, net, streams, zlib, libuv, llhttp), the web framework with its dependencies, Nest (`@nestjs/*`), the
 * app, other packages (ORM & driver, production middleware), V8 itself (ICs and runtime, builtins, GC, compilers),
 * and the rest (libc and the system calls behind it, other shared libraries, unknown code). Idle ticks (the event
 * loop waiting) belong to no layer: they are no CPU.
 */

/** @typedef {import('./groups.js').GroupId} GroupId */
/** @typedef {import('../model/profile-record.js').LayerId} LayerId */
/** @typedef {import('../model/profile-record.js').LayerTicks} LayerTicks */

/** Every layer, in the order charts stack them, with its colour. */
export const LAYERS = /** @type {const} */ ([
  { id: 'node', label: 'node core', color: '#8bc34a' },
  { id: 'framework', label: 'framework (+ deps)', color: '#e8a33d' },
  { id: 'nest', label: 'Nest (@nestjs/*)', color: '#e0234e' },
  { id: 'app', label: 'app', color: '#2ecc71' },
  { id: 'packages', label: 'other packages', color: '#9b59b6' },
  { id: 'v8', label: 'V8 (ICs, runtime, GC, compilers)', color: '#f1c40f' },
  { id: 'rest', label: 'libc, kernel, other', color: '#95a5a6' },
]);

/** @type {Partial<Record<GroupId, LayerId>>} */
const JS_GROUP_LAYERS = {
  node: 'node',
  express: 'framework',
  fastify: 'framework',
  nestjs: 'nest',
  app: 'app',
  'orm-db': 'packages',
  helmet: 'packages',
  logger: 'packages',
  'class-transformer': 'packages',
  'other-packages': 'packages',
  gc: 'v8',
  unaccounted: 'rest',
};

/** node's own C++ and the libraries built into its binary (libuv, llhttp, zlib, OpenSSL, simdutf, ada, c-ares…). */
const NODE_NATIVE =
  /^(?:node::|uv_|uv__|llhttp_|simdutf::|ada::|nghttp2_|ncrypto::|ares_|Cr_z_|napi_|deflate|inflate|crc32|adler32|SSL_|EVP_|OPENSSL_|BIO_|CRYPTO_|ossl_|SHA\d|sha\d)/;
/** V8's C++ namespaces. */
const V8_NAMESPACES = /^(?:v8::|cppgc::|heap::base::|construct_stub_|Builtins_)/;
/** V8's code objects as tick-analysis.js names them, "Kind: name": builtins, stubs, IC handlers, regexps, wasm. */
const V8_CODE = /^[A-Z][\w-]*: /;

/**
 * A C++ symbol's qualified function name: template arguments, parameters and return type dropped.
 * "void node::StreamBase::JSMethod<&node::StreamBase::Writev>(v8::FunctionCallbackInfo<…> const&)" → node::StreamBase::JSMethod
 * @param {string} symbol
 */
export function qualifiedName(symbol) {
  let depth = 0;
  let out = '';
  for (const ch of symbol) {
    if (ch === '<') depth += 1;
    else if (ch === '>' && depth > 0) depth -= 1;
    else if (depth === 0) {
      if (ch === '(' && out.trim() !== '') break;
      out += ch;
    }
  }
  const words = out.trim().split(/\s+/);
  return words[words.length - 1] ?? '';
}

/**
 * @param {{ name: string, group: string }} frame a function summary's name and group (a GroupId)
 * @returns {LayerId | null} null: idle
 */
export function layerOf({ name, group }) {
  if (group === 'idle') return null;
  // node:zlib's JavaScript counts for compression among the groups, for node core among the layers
  if (group === 'compression') return / node:/.test(name) ? 'node' : 'packages';
  if (group !== 'native') return JS_GROUP_LAYERS[/** @type {GroupId} */ (group)] ?? 'rest';
  if (V8_CODE.test(name)) return 'v8';
  const fn = qualifiedName(name);
  if (V8_NAMESPACES.test(fn)) return 'v8';
  if (NODE_NATIVE.test(fn)) return 'node';
  return 'rest';
}

/**
 * Self ticks by layer, over the busy ticks (idle left out), every layer present even at 0.
 * @param {{ name: string, group: string, selfTicks: number }[]} functions every function of a profile
 * @returns {LayerTicks[]}
 */
export function layerTicks(functions) {
  /** @type {Map<LayerId, number>} */
  const ticks = new Map(LAYERS.map((l) => [l.id, 0]));
  for (const fn of functions) {
    const layer = layerOf(fn);
    if (layer) ticks.set(layer, (ticks.get(layer) ?? 0) + fn.selfTicks);
  }
  const busy = [...ticks.values()].reduce((sum, n) => sum + n, 0);
  return LAYERS.map(({ id }) => {
    const n = ticks.get(id) ?? 0;
    return { id, ticks: n, share: busy ? n / busy : 0 };
  });
}
