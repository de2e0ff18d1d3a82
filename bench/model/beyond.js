// @ts-check
// The "beyond hello" profiles (issue 41): request bodies, uploads, static files, a streamed file and server-sent
// events, on the built-in app. Each answer is checked byte for byte (a digest) before anything is timed.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { json, missingKeys } from './body-checks.js';
import { CPU_PER_REQUEST } from './metrics.js';
import { MULTIPART_TYPE, FILES_MTIME, jsonBody, multipartBody, payloadText, sha256 } from './payloads.js';

const KIB = 1024;
const MIB = 1024 * KIB;
/** The files the app serves in these profiles, written by the prepare step before the servers start. */
export const SERVED_FILES = { 'static-4k.txt': 4 * KIB, 'static-1m.txt': MIB, 'stream-10m.bin': 10 * MIB };
/** One directory per user on the host: the files are the same for every run, so runs may share them. */
export const FILES_DIR = join(tmpdir(), `nest-adapter-bench-files-${process.getuid?.() ?? 'user'}`);
const SSE_EVENTS = 100;
const TEXT = /^text\/plain(;|$)/;
const JSON_TYPE = /^application\/json(;|$)/;

/**
 * The answer describes the bytes received: their count and SHA-256.
 * @param {string} what @param {string} sent @param {Record<string, unknown>} [more] other fields it must echo
 */
function receivedCheck(what, sent, more = {}) {
  let expected = /** @type {{ bytes: number, sha256: string } | null} */ (null);
  return json((value) => {
    expected ??= { bytes: Buffer.byteLength(sent), sha256: sha256(sent) };
    const missing = missingKeys(value, ['bytes', 'sha256', ...Object.keys(more)], `the answer about ${what}`);
    if (missing) return missing;
    if (value.bytes !== expected.bytes) return `${what}: ${expected.bytes} bytes sent, the app received ${value.bytes}`;
    if (value.sha256 !== expected.sha256) return `${what}: the app's digest ${value.sha256} is not the one sent`;
    const wrong = Object.entries(more).find(([key, wanted]) => value[key] !== wanted);
    return wrong
      ? `${what}: expected ${wrong[0]} ${JSON.stringify(wrong[1])}, got ${JSON.stringify(value[wrong[0]])}`
      : null;
  });
}

/**
 * The body is the file as written: same length, same digest.
 * @param {string} name
 * @returns {(body: string) => string | null}
 */
function fileCheck(name) {
  const bytes = SERVED_FILES[/** @type {keyof typeof SERVED_FILES} */ (name)];
  let digest = /** @type {string | null} */ (null);
  return (body) => {
    digest ??= sha256(payloadText(bytes, name));
    if (body.length !== bytes) return `${name}: expected ${bytes} bytes, got ${body.length}`;
    return sha256(body) === digest ? null : `${name}: the bytes differ from the file's`;
  };
}

/**
 * `count` events, ids 1..count in order, each with its sequence number as data.
 * @param {number} count
 * @returns {(body: string) => string | null}
 */
export function eventStreamCheck(count) {
  return (body) => {
    const events = body.split('\n\n').filter((event) => event.trim() !== '');
    if (events.length !== count) return `expected ${count} events, got ${events.length}`;
    const wrong = events.findIndex((event, i) => event.trim() !== `id: ${i + 1}\ndata: {"sequence":${i + 1}}`);
    return wrong < 0 ? null : `event ${wrong + 1} is ${JSON.stringify(events[wrong].slice(0, 80))}`;
  };
}

/**
 * Each heavy profile's own load (config.js: ScenarioLoad), scaled as HttpArena scales its profiles against its
 * baseline (uploads at a sixteenth of its connections): enough connections to keep a core busy, few enough that each
 * gets several answers in a run and the bytes in flight stay in memory.
 */
const PROFILE_LOADS = {
  'body-1m': { connections: 16, durationSec: 1 },
  'upload-1m': { connections: 16, durationSec: 1 },
  'upload-20m': { connections: 4, durationSec: 4 },
  // the production stack gzips these on the fly
  'static-1m': { connections: 4, durationSec: 3 },
  'stream-10m': { connections: 2, durationSec: 5 },
};
/** Mostly idle keep-alive connections: each sends a request every 2 s on average, so a run stays well under load. */
const IDLE_RATE = 0.5;
const IDLE_RUN_SEC = 6;
/** HttpArena's limited-conn profile: a new connection every 10 requests. */
const REQUESTS_PER_CONNECTION = 10;

/** @param {string} name */
const ownLoad = (name) => {
  const load = PROFILE_LOADS[/** @type {keyof typeof PROFILE_LOADS} */ (name)];
  return load ? { load } : {};
};

/** @param {string} name @param {number} bytes */
function bodyScenario(name, bytes) {
  const body = jsonBody(bytes);
  return {
    name,
    ...ownLoad(name),
    description: `POST /bodies with a ${label(bytes)} JSON body → its size and SHA-256`,
    method: 'POST',
    path: '/bodies',
    headers: { 'content-type': 'application/json' },
    body,
    expect: { status: 200, contentType: JSON_TYPE, body: receivedCheck('the JSON body', body) },
  };
}

/** @param {string} name @param {number} bytes */
function uploadScenario(name, bytes) {
  const filename = `${name}.bin`;
  const content = payloadText(bytes, filename);
  return {
    name,
    ...ownLoad(name),
    description: `POST /uploads: a ${label(bytes)} file as multipart/form-data (multer / @fastify/multipart) → its SHA-256`,
    method: 'POST',
    path: '/uploads',
    headers: { 'content-type': MULTIPART_TYPE },
    body: multipartBody(filename, content),
    expect: { status: 200, contentType: JSON_TYPE, body: receivedCheck('the file', content, { filename }) },
  };
}

/** @param {string} name @param {string} file */
function staticScenario(name, file) {
  return {
    name,
    ...ownLoad(name),
    description: `GET /static/${file}: a ${label(SERVED_FILES[/** @type {keyof typeof SERVED_FILES} */ (file)])} file (express.static / @fastify/static)`,
    path: `/static/${file}`,
    expect: { status: 200, contentType: TEXT, body: fileCheck(file) },
  };
}

/** @param {number} bytes */
function label(bytes) {
  return bytes >= MIB ? `${bytes / MIB} MiB` : `${bytes / KIB} KiB`;
}

/** The built-in app's cheapest answer: what the connections cost, on it. */
const HELLO = {
  path: '/',
  expect: { status: 200, contentType: /^text\/(plain|html)(;|$)/, body: 'Hello World!' },
};

/**
 * `connections` keep-alive connections held open, each sending a request now and then: what a server pays to hold
 * them (memory per connection, CPU per request) rather than how fast it answers.
 * @param {number} connections
 */
function idleScenario(connections) {
  return {
    name: `idle-${connections / 1000}k`,
    description: `GET / on ${connections.toLocaleString('en')} keep-alive connections, each sending one request every ${1 / IDLE_RATE} s on average`,
    load: { connections, connectionRate: IDLE_RATE, durationSec: IDLE_RUN_SEC },
    // req/s is the pace on both sides: what differs is what each server spends on a request
    metric: CPU_PER_REQUEST,
    ...HELLO,
  };
}

/** Hello's JSON twin, asked over TLS or HTTP/2: what the transport costs, on the cheapest answer. */
const HELLO_JSON = {
  path: '/json',
  expect: { status: 200, contentType: JSON_TYPE, body: '{"message":"Hello, World!"}' },
};

/** The profiles whose servers speak another protocol: each runs on the targets of TRANSPORT_TARGETS only. */
export const TRANSPORT_SCENARIOS = [
  { name: 'tls', description: 'GET /json over HTTPS (HTTP/1.1, TLS 1.3), connections kept alive', ...HELLO_JSON },
  {
    name: 'tls-close',
    description: 'GET /json over HTTPS, a new connection (and TLS handshake) for every request',
    ...HELLO_JSON,
    load: { requestsPerConnection: 1 },
  },
  {
    name: 'h2',
    description: 'GET /json over HTTP/2 with TLS (h2), one stream at a time per connection',
    ...HELLO_JSON,
  },
  { name: 'h2c', description: 'GET /json over cleartext HTTP/2 (h2c, prior knowledge)', ...HELLO_JSON },
];

/** This run's certificate and key, made by the prepare step; one directory per user on the host. */
export const TLS_DIR = join(tmpdir(), `nest-adapter-bench-tls-${process.getuid?.() ?? 'user'}`);
// The protocol profiles time /json: their servers never carry the transfer features, whatever else the run measures.
const TLS_ENV = { TLS_KEY_FILE: join(TLS_DIR, 'key.pem'), TLS_CERT_FILE: join(TLS_DIR, 'cert.pem'), APP_TRANSFER: '0' };

/**
 * The built-in app once more per protocol. Express has no HTTP/2 through Nest's ExpressAdapter, so h2 and h2c have a
 * Fastify target only, and the report says why there is no ratio.
 * @param {(entry: string) => { command: string[], cwd: string }} nodeTarget
 * @param {{ express: string, fastify: string }} entries
 */
export function transportTargets(nodeTarget, entries) {
  return [
    {
      name: 'nest-express-tls',
      group: 'tls',
      protocol: 'https',
      env: TLS_ENV,
      ...nodeTarget(entries.express),
      scenarios: ['tls', 'tls-close'],
    },
    {
      name: 'nest-fastify-tls',
      group: 'tls',
      protocol: 'https',
      env: TLS_ENV,
      ...nodeTarget(entries.fastify),
      scenarios: ['tls', 'tls-close'],
    },
    {
      name: 'nest-fastify-h2',
      group: 'h2',
      protocol: 'h2',
      env: { ...TLS_ENV, HTTP2: '1' },
      ...nodeTarget(entries.fastify),
      scenarios: ['h2'],
    },
    {
      name: 'nest-fastify-h2c',
      group: 'h2c',
      protocol: 'h2c',
      env: { HTTP2: '1', APP_TRANSFER: '0' },
      ...nodeTarget(entries.fastify),
      scenarios: ['h2c'],
    },
  ];
}

export const TRANSPORT_PAIRS = [['nest-fastify-tls', 'nest-express-tls']];

/** The profiles that need the app's transfer routes: bodies, uploads, static files, streams (transferTargets). */
export const TRANSFER_SCENARIOS = [
  bodyScenario('body-1k', KIB),
  bodyScenario('body-64k', 64 * KIB),
  bodyScenario('body-1m', MIB),
  uploadScenario('upload-1m', MIB),
  uploadScenario('upload-20m', 20 * MIB),
  staticScenario('static-4k', 'static-4k.txt'),
  staticScenario('static-1m', 'static-1m.txt'),
  {
    name: 'static-304',
    description: 'GET /static/static-4k.txt with If-Modified-Since its date → 304, no body',
    path: '/static/static-4k.txt',
    headers: { 'if-modified-since': FILES_MTIME.toUTCString() },
    expect: { status: 304, body: '' },
  },
  {
    name: 'stream-10m',
    ...ownLoad('stream-10m'),
    description: 'GET /files/stream-10m.bin: a 10 MiB file through StreamableFile',
    path: '/files/stream-10m.bin',
    expect: { status: 200, contentType: 'application/octet-stream', body: fileCheck('stream-10m.bin') },
  },
  {
    name: 'sse',
    description: `GET /events?count=${SSE_EVENTS}: ${SSE_EVENTS} server-sent events through @Sse(), then the stream ends`,
    path: `/events?count=${SSE_EVENTS}`,
    expect: { status: 200, contentType: 'text/event-stream', body: eventStreamCheck(SSE_EVENTS) },
  },
];

/** The app with its transfer routes switched on: what the transfer profiles, and only they, run on. */
const TRANSFER_ENV = { APP_TRANSFER: '1' };

/**
 * The built-in app once more with its transfer routes (APP_TRANSFER=1), for the profiles that use them: the others
 * run on the app as `nest new` makes it, without @fastify/multipart's hook or express.static's middleware.
 * @param {(entry: string) => { command: string[], cwd: string }} nodeTarget
 * @param {{ express: string, fastify: string }} entries
 * @param {string[]} stacks
 */
export function transferTargets(nodeTarget, entries, stacks) {
  const scenarios = TRANSFER_SCENARIOS.map((scenario) => scenario.name);
  return [
    {
      name: 'nest-express-transfer',
      group: 'transfer',
      env: TRANSFER_ENV,
      ...nodeTarget(entries.express),
      stacks,
      scenarios,
    },
    {
      name: 'nest-fastify-transfer',
      group: 'transfer',
      env: TRANSFER_ENV,
      ...nodeTarget(entries.fastify),
      stacks,
      scenarios,
    },
  ];
}

export const TRANSFER_PAIRS = [['nest-fastify-transfer', 'nest-express-transfer']];

export const BEYOND_SCENARIOS = [
  ...TRANSFER_SCENARIOS,
  {
    name: 'close-every',
    description: `GET / on a new connection every ${REQUESTS_PER_CONNECTION} requests (Connection: close on the last), as HttpArena's limited-conn`,
    load: { requestsPerConnection: REQUESTS_PER_CONNECTION },
    ...HELLO,
  },
  {
    name: 'no-keepalive',
    description: 'GET / on a new connection for every request (Connection: close), as callers without keep-alive do',
    load: { requestsPerConnection: 1 },
    ...HELLO,
  },
  idleScenario(1000),
  idleScenario(4000),
];

const IDLE_NOTE = `paced at ${IDLE_RATE} request per second per connection: req/s is the pace, not what the server could do, so the ratio divides CPU per request; memory per connection beside it`;

/** What a reader of a profile's row needs to know beside its ratio. */
export const PROFILE_NOTES = {
  'body-1m': "Express's JSON limit (100 KB by default) raised to 1 MiB, as a user must; Fastify's default is 1 MiB",
  'upload-1m': 'multer and @fastify/multipart, both reading the file into memory, both limited to 32 MiB',
  'upload-20m': 'multer and @fastify/multipart, both reading the file into memory, both limited to 32 MiB',
  sse: `one request is ${SSE_EVENTS} events: events per second are ${SSE_EVENTS} × req/s`,
  'close-every': `Connection: close on every ${REQUESTS_PER_CONNECTION}th request: an accept and a close per ${REQUESTS_PER_CONNECTION} answers`,
  'no-keepalive': 'Connection: close on every request: each answer costs the server an accept and a close',
  'idle-1k': IDLE_NOTE,
  'idle-4k': IDLE_NOTE,
};

/** `--scenarios beyond` names them all; each also runs by its own name. */
export const SCENARIO_SETS = { beyond: [...BEYOND_SCENARIOS, ...TRANSPORT_SCENARIOS].map((scenario) => scenario.name) };

/** Profiles without an Express side, and why. */
export const NO_EXPRESS_SIDE = {
  h2: "Express: no HTTP/2 through Nest's ExpressAdapter (it takes httpsOptions, HTTP/1.1 only); Fastify: http2: true",
  h2c: "Express: no HTTP/2 through Nest's ExpressAdapter (it takes httpsOptions, HTTP/1.1 only); Fastify: http2: true",
};

/** @param {string} dir */
export async function makeCertificate(dir) {
  await mkdir(dir, { recursive: true });
  const { KEY, CERT } = { KEY: TLS_ENV.TLS_KEY_FILE, CERT: TLS_ENV.TLS_CERT_FILE };
  // one EC P-256 key and self-signed certificate for the run, the same for every server
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    KEY,
    '-out',
    CERT,
  ]);
}
