import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../src/auth/token.js';
import type { AdapterName } from '../src/bootstrap.js';
import { DATABASES, ensureMysqlDatabase } from './support/app-matrix.js';
import { closedPort, compileApp, runCompiled, type RunningProcess } from './support/compiled-app.js';
import { decodeJwtPart } from './support/jwt.js';

const ENTRYPOINTS: [AdapterName, string][] = [
  ['express', 'main.js'],
  ['fastify', 'main.fastify.js'],
];
const START_LINE = /^Nest on (\w+) listening on (http:\/\/127\.0\.0\.1:\d+), database: (.+), stack: (.+)$/;
const JWT_SECRET = 'startup-test-secret';

let outDir: string;
beforeAll(async () => {
  outDir = await compileApp();
});

/** Starts a compiled entrypoint on a free port and waits for its start line. */
async function start(
  file: string,
  env: Record<string, string> = {},
): Promise<{ server: RunningProcess; url: string; line: RegExpExecArray }> {
  const server = runCompiled(`${outDir}/${file}`, { PORT: '0', JWT_SECRET, ...env });
  const line = await server.waitForLine(START_LINE);
  return { server, url: line[2], line };
}

const lines = (text: string) => text.split('\n').filter(Boolean);

/**
 * A POST /purchases whose body arrives in two parts: half now, the rest on
 * finish(). `inFlight` resolves once the server has taken the request (it
 * answered "100 Continue" to the headers); from then until finish() the
 * request is in flight.
 */
function startSlowPurchase(url: string): { inFlight: Promise<void>; finish(): void; status: Promise<string> } {
  const body = '{"items":[{"productId":1,"quantity":2}]}';
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let response = '';
  // The server cuts the connection at its deadline: that ends the answer, it is not a test failure
  socket.on('error', () => {});
  const inFlight = new Promise<void>((resolve) =>
    socket.on('data', (chunk) => {
      response += chunk;
      if (response.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        socket.write(body.slice(0, 10));
        resolve();
      }
    }),
  );
  socket.write(
    `POST /purchases HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  const finalStatusLine = () => response.replace('HTTP/1.1 100 Continue\r\n\r\n', '').split('\r\n')[0];
  return {
    inFlight,
    finish: () => socket.write(body.slice(10)),
    status: new Promise((resolve) => socket.on('close', () => resolve(finalStatusLine()))),
  };
}

describe.each(ENTRYPOINTS)('the compiled %s entrypoint (dist/%s)', (adapter, file) => {
  it.each(DATABASES)(
    'starts on the $name database, prints one line naming adapter, address and database, and serves',
    async ({ name, url }) => {
      if (url) await ensureMysqlDatabase(url);
      const { server, url: address, line } = await start(file, url ? { DATABASE_URL: url } : {});
      try {
        expect(line[1]).toBe(adapter);
        expect(line[3]).toBe(
          name === 'mysql'
            ? `MySQL ${new URL(url!).host}${new URL(url!).pathname}`
            : 'embedded SQLite (sql.js, in memory)',
        );
        const res = await fetch(`${address}/products/1`);
        expect([res.status, await res.text()]).toEqual([
          200,
          '{"id":1,"name":"Basic Widget","priceCents":8019,"stock":37}',
        ]);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(lines(server.stdout())).toEqual([line[0]]);
      expect(server.stderr()).toBe('');
    },
  );

  it.each([
    ['production', {}, 'production'],
    ['production', { APP_STACK_OMIT: 'helmet, logger' }, 'production without helmet, logger'],
    ['bare', { APP_STACK_OMIT: 'helmet' }, 'bare'],
  ] as const)('names the %s stack it serves in its start line', async (stack, env, described) => {
    const logDir = await mkdtemp(join(tmpdir(), 'nest-adapter-bench-startup-'));
    try {
      const { server, line } = await start(file, {
        APP_STACK: stack,
        REQUEST_LOG_FILE: join(logDir, 'requests.log'),
        ...env,
      });
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(line[4]).toBe(described);
    } finally {
      await rm(logDir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ APP_STACK: 'prod' }, 'APP_STACK must be one of bare, production (got "prod")'],
    [
      { APP_STACK: 'production', APP_STACK_OMIT: 'helmet,gzip' },
      'APP_STACK_OMIT takes a comma list of helmet, cors, compression, logger, request-id, serializer (got unknown "gzip")',
    ],
    [{ SHUTDOWN_TIMEOUT_MS: '60000' }, 'SHUTDOWN_TIMEOUT_MS must be an integer from 1 to 10000 (got "60000")'],
  ])('refuses unknown settings %o in one line, exit code 1', async (env, message) => {
    const server = runCompiled(`${outDir}/${file}`, { PORT: '0', JWT_SECRET, ...env });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(lines(server.stderr())).toEqual([message]);
  });

  it('on SIGTERM lets a request in flight finish, then exits with code 0', async () => {
    const { server, url } = await start(file);
    const upload = startSlowPurchase(url);
    await upload.inFlight;
    server.child.kill('SIGTERM');
    upload.finish();
    expect(await upload.status).toBe('HTTP/1.1 201 Created');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('cuts a request that never finishes at the shutdown deadline, naming what was still open, exit code 1', async () => {
    const { server, url } = await start(file, { SHUTDOWN_TIMEOUT_MS: '500' });
    const upload = startSlowPurchase(url);
    await upload.inFlight;
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(lines(server.stderr()).slice(-1)).toEqual([
      'Shutdown did not finish within 500 ms; still open: 1 HTTP connection, the database connection; exiting',
    ]);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits with code 0 on %s', async (signal) => {
    const { server } = await start(file);
    server.child.kill(signal);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('prints one line naming host:port and exits 1 when MySQL refuses the connection', async () => {
    const port = await closedPort();
    const server = runCompiled(`${outDir}/${file}`, {
      PORT: '0',
      JWT_SECRET,
      DATABASE_URL: `mysql://root@127.0.0.1:${port}/nest_bench`,
    });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stdout()).toBe('');
    expect(lines(server.stderr())).toEqual([
      `MySQL at 127.0.0.1:${port} refused the connection; start it or unset DATABASE_URL to use the embedded SQLite database`,
    ]);
  });

  it('refuses to start in production without JWT_SECRET, in one line', async () => {
    const server = runCompiled(`${outDir}/${file}`, { PORT: '0', NODE_ENV: 'production' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(lines(server.stderr())).toEqual([
      'JWT_SECRET is not set; NODE_ENV=production refuses the development default, so set JWT_SECRET',
    ]);
  });

  it('says so when it falls back to the development JWT secret outside production', async () => {
    const server = runCompiled(`${outDir}/${file}`, { PORT: '0' });
    await server.waitForLine(START_LINE);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(lines(server.stderr())).toEqual([
      'JWT_SECRET is not set: tokens are signed with the development default "nest-adapter-bench-development-secret"',
    ]);
  });

  it('prints one line and exits 1 when its port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const server = runCompiled(`${outDir}/${file}`, { PORT: String(port), JWT_SECRET });
      expect(await server.exited).toEqual({ code: 1, signal: null });
      expect(lines(server.stderr())).toEqual([
        `Cannot listen on 127.0.0.1:${port} (EADDRINUSE); set HOST and PORT to a free address`,
      ]);
    } finally {
      blocker.close();
    }
  });
});

describe('the token CLI (npm run token)', () => {
  it('prints one token, alone on stdout, that the server accepts for /secure/products', async () => {
    const cli = runCompiled(`${outDir}/auth/token.cli.js`, { JWT_SECRET });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const [token, ...rest] = lines(cli.stdout());
    expect(rest).toEqual([]);
    const { server, url } = await start('main.js');
    try {
      const accepted = await fetch(`${url}/secure/products`, { headers: { Authorization: `Bearer ${token}` } });
      expect(accepted.status).toBe(200);
      const refused = await fetch(`${url}/secure/products`, {
        headers: { Authorization: `Bearer ${signToken('other-secret')}` },
      });
      expect(refused.status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('takes a TTL in seconds', async () => {
    const cli = runCompiled(`${outDir}/auth/token.cli.js`, { JWT_SECRET }, ['60']);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const payload = decodeJwtPart(cli.stdout().trim(), 1);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(60);
  });

  it('refuses a TTL that is not a positive integer with one line and exit code 2', async () => {
    const cli = runCompiled(`${outDir}/auth/token.cli.js`, { JWT_SECRET }, ['soon']);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(lines(cli.stderr())).toEqual([
      'TTL_SECONDS must be one positive integer (got soon); usage: npm run token [-- TTL_SECONDS]',
    ]);
  });
});

describe('signToken, as the bench imports it from the compiled auth/token.js', () => {
  let compiledSignToken: typeof signToken;
  beforeAll(async () => {
    ({ signToken: compiledSignToken } = await import(`${outDir}/auth/token.js`));
  });

  it('signs HS256 tokens that expire after one hour by default', () => {
    const token = compiledSignToken('s');
    expect(decodeJwtPart(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = decodeJwtPart(token, 1);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
  });

  it.each([0, -5, 1.5])('refuses the TTL %s', (ttl) => {
    expect(() => compiledSignToken('s', ttl)).toThrow(RangeError);
  });
});
