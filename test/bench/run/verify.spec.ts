import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createSecureServer, createServer as createH2cServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { SCENARIO_SETS, SERVED_FILES, TLS_DIR, makeCertificate } from '../../../bench/model/beyond.js';
import { FILES_MTIME, payloadText } from '../../../bench/model/payloads.js';
import { requestFor, scenarioByName } from '../../../bench/model/scenarios.js';
import { verifyPair } from '../../../bench/run/verify.js';

// A stand-in for the app that answers every beyond profile as the app does, or with one thing wrong: verification
// must pass the first and refuse the second, for every profile, before anything is timed.
type Answer = { status?: number; type?: string; headers?: Record<string, string>; body: string | Buffer };
/** What the stand-in reads of a request and writes of an answer, alike over HTTP/1.1 and HTTP/2. */
interface RequestLike {
  url?: string;
  headers: IncomingHttpHeaders;
  on(event: 'data' | 'end', listener: (chunk: Buffer) => void): unknown;
}
interface ResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string | Buffer): unknown;
}
type Route = (path: string, sent: Buffer, req: RequestLike) => Answer;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const described = (bytes: Buffer) => ({ bytes: bytes.length, sha256: sha256(bytes) });
const JSON_TYPE = 'application/json; charset=utf-8';

/** The file part of a multipart body as the bench sends it. */
function uploaded(sent: Buffer) {
  const text = sent.toString('latin1');
  const filename = /filename="([^"]+)"/.exec(text)![1];
  const content = sent.subarray(text.indexOf('\r\n\r\n') + 4, text.lastIndexOf('\r\n--'));
  return { filename, content };
}

const served = (name: string) => payloadText(SERVED_FILES[name as keyof typeof SERVED_FILES], name);
const events = (count: number) =>
  Array.from({ length: count }, (_, i) => `id: ${i + 1}\ndata: {"sequence":${i + 1}}\n\n`).join('');

const RIGHT: Route = (path, sent, req) => {
  if (path === '/bodies') return { type: JSON_TYPE, body: JSON.stringify(described(sent)) };
  if (path === '/uploads') {
    const { filename, content } = uploaded(sent);
    return { type: JSON_TYPE, body: JSON.stringify({ filename, ...described(content) }) };
  }
  if (path.startsWith('/static/')) {
    if (req.headers['if-modified-since'] === FILES_MTIME.toUTCString()) return { status: 304, body: '' };
    return { type: 'text/plain; charset=utf-8', body: served(path.slice('/static/'.length)) };
  }
  if (path.startsWith('/files/'))
    return { type: 'application/octet-stream', body: served(path.slice('/files/'.length)) };
  if (path.startsWith('/events')) return { type: 'text/event-stream', body: events(100) };
  if (path === '/json') return { type: JSON_TYPE, body: '{"message":"Hello, World!"}' };
  return { type: 'text/plain; charset=utf-8', body: 'Hello World!' };
};

/** Each profile's wrong answer, and what its refusal must say. */
const WRONG: Record<string, { route: Route; refusal: RegExp }> = {
  'body-1k': {
    route: (p, sent, r) => RIGHT(p, sent.subarray(1), r),
    refusal: /1024 bytes sent, the app received 1023/,
  },
  'body-64k': {
    route: (p, sent, r) => RIGHT(p, Buffer.from(sent.toString().replace('"id":1', '"id":2')), r),
    refusal: /digest .* is not the one sent/,
  },
  'body-1m': {
    route: () => ({ status: 413, type: JSON_TYPE, body: '{"message":"request entity too large"}' }),
    refusal: /expected status 200, got 413 \(request entity too large\)/,
  },
  'upload-1m': {
    route: (p, sent, r) => RIGHT(p, Buffer.concat([sent.subarray(0, 300), sent.subarray(301)]), r),
    refusal: /1048576 bytes sent, the app received 1048575/,
  },
  'upload-20m': {
    route: (p, sent, r) => RIGHT(p, Buffer.from(sent.toString().replace('upload-20m.bin', 'file.bin')), r),
    refusal: /expected filename "upload-20m.bin", got "file.bin"/,
  },
  'static-4k': {
    route: (p, s, r) => ({ ...RIGHT(p, s, r), body: served('static-4k.txt').slice(1) }),
    refusal: /expected 4096 bytes, got 4095/,
  },
  'static-1m': {
    route: (p, s, r) => ({ ...RIGHT(p, s, r), type: 'application/octet-stream' }),
    refusal: /expected content-type/,
  },
  'static-304': {
    route: () => ({ type: 'text/plain', body: served('static-4k.txt') }),
    refusal: /expected status 304, got 200/,
  },
  'stream-10m': {
    route: (p, s, r) => ({ ...RIGHT(p, s, r), body: `x${served('stream-10m.bin').slice(1)}` }),
    refusal: /the bytes differ from the file's/,
  },
  sse: { route: () => ({ type: 'text/event-stream', body: events(99) }), refusal: /expected 100 events, got 99/ },
  'close-every': { route: () => ({ type: 'text/plain', body: 'Hello World' }), refusal: /expected "Hello World!"/ },
  'no-keepalive': {
    route: () => ({ type: 'application/json', body: 'Hello World!' }),
    refusal: /expected content-type/,
  },
  'idle-1k': {
    route: () => ({ status: 503, type: 'text/plain', body: 'busy' }),
    refusal: /expected status 200, got 503/,
  },
  'idle-4k': { route: () => ({ type: 'text/plain', body: '' }), refusal: /expected "Hello World!", got ""/ },
  tls: { route: () => ({ type: 'text/plain', body: '{"message":"Hello, World!"}' }), refusal: /expected content-type/ },
  'tls-close': { route: () => ({ type: JSON_TYPE, body: '{"message":"Hello"}' }), refusal: /expected .*Hello, World!/ },
};

let mode: Route = RIGHT;
function handler(req: RequestLike, res: ResponseLike) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { status = 200, type, headers = {}, body } = mode(req.url!.split('?')[0], Buffer.concat(chunks), req);
    res.writeHead(status, { ...headers, ...(type ? { 'content-type': type } : {}) });
    res.end(body);
  });
}

const servers: Server[] = [];
async function listening(server: Server) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const origins: Record<string, string> = {};
beforeAll(async () => {
  await makeCertificate(TLS_DIR);
  const tls = { key: readFileSync(`${TLS_DIR}/key.pem`), cert: readFileSync(`${TLS_DIR}/cert.pem`) };
  origins.http = `http://127.0.0.1:${await listening(createHttpServer(handler))}`;
  origins.https = `https://127.0.0.1:${await listening(createHttpsServer(tls, handler))}`;
  origins.h2 = `h2://127.0.0.1:${await listening(createSecureServer(tls, handler))}`;
  origins.h2c = `h2c://127.0.0.1:${await listening(createH2cServer(handler))}`;
  // an HTTP/1.1 server where HTTP/2 was asked: the wrong answer of the h2 profiles
  const http1 = await listening(createHttpServer(handler));
  const http1Tls = await listening(createHttpsServer(tls, handler));
  origins['h2-wrong'] = `h2://127.0.0.1:${http1Tls}`;
  origins['h2c-wrong'] = `h2c://127.0.0.1:${http1}`;
});
afterAll(() => servers.forEach((server) => server.close()));

const ORIGIN_OF: Record<string, string> = { tls: 'https', 'tls-close': 'https', h2: 'h2', h2c: 'h2c' };
const verify = (name: string, origin: string) => {
  const scenario = scenarioByName(name);
  return verifyPair({
    runtime: 'node',
    target: 'stand-in',
    baseUrl: origin,
    scenario,
    request: requestFor(scenario, { token: null }),
  });
};

describe.each(SCENARIO_SETS.beyond)('%s', (name) => {
  it('passes the answer the app gives', async () => {
    mode = RIGHT;
    expect(await verify(name, origins[ORIGIN_OF[name] ?? 'http'])).toMatchObject({ ok: true, reason: null });
  });

  it('refuses a wrong answer, saying what was wrong', async () => {
    if (name === 'h2' || name === 'h2c') {
      mode = RIGHT;
      const refused = await verify(name, origins[`${name}-wrong`]);
      expect(refused.ok).toBe(false);
      expect(refused.reason).toMatch(/request failed|HTTP\/2 was asked/);
      return;
    }
    mode = WRONG[name].route;
    const refused = await verify(name, origins[ORIGIN_OF[name] ?? 'http']);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toMatch(WRONG[name].refusal);
  });
});

describe('static-304 on the production stack', () => {
  it('passes a 304 that names gzip and has no body, as @fastify/compress answers it', async () => {
    mode = () => ({ status: 304, headers: { 'content-encoding': 'gzip' }, body: '' });
    expect(await verify('static-304', origins.http)).toMatchObject({ ok: true, reason: null });
  });
});
