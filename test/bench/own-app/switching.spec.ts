import { switchingCost } from '../../../bench/own-app/switching.js';
import { startupRows } from '../../../bench/analysis/startup.js';

const answer = (status: number, body: string) => ({ status, contentType: 'application/json', error: null, body });

function ownAppResults(): any {
  return {
    options: { rate: null },
    runs: [],
    ownApp: {
      mix: null,
      routes: [
        { method: 'GET', path: '/notes', handler: 'NotesController.list', scenario: 'notes', request: 'GET /notes' },
        {
          method: 'GET',
          path: '/notes/:id/card',
          handler: 'NotesController.card',
          scenario: null,
          request: 'GET /notes/1/card',
        },
        { method: 'GET', path: '/me', handler: 'AccountController.me', scenario: null, request: 'GET /me' },
      ],
      scan: {
        files: [],
        fromSourceMaps: 1,
        skipped: null,
        findings: [
          {
            rule: 'res.json',
            kind: 'breaks',
            file: 'src/notes.controller.ts',
            line: 27,
            code: 'res.json({ title });',
            handler: 'NotesController.card',
            onFastify: 'no json()',
            fix: 'return the value',
          },
        ],
      },
      compatibility: {
        startFailure: null,
        routes: [
          {
            scenario: 'notes',
            request: 'GET /notes',
            same: true,
            difference: null,
            express: answer(200, '[]'),
            fastify: answer(200, '[]'),
            probes: [
              {
                probe: 'trailing slash',
                request: 'GET /notes/',
                difference: 'status 200 → 404',
                express: answer(200, '[]'),
                fastify: answer(404, '{}'),
              },
            ],
          },
          {
            scenario: 'notes-id-card',
            request: 'GET /notes/1/card',
            same: false,
            difference: 'status 200 → 500',
            express: answer(200, '{"title":"a"}'),
            fastify: { ...answer(500, '{}'), error: 'TypeError: res.json is not a function' },
            probes: [
              {
                probe: 'trailing slash',
                request: 'GET /notes/1/card/',
                difference: 'status 200 → 404',
                express: answer(200, '{"title":"a"}'),
                fastify: answer(404, '{}'),
              },
            ],
          },
          {
            scenario: 'me',
            request: 'GET /me',
            same: false,
            difference: 'body',
            express: answer(200, '{"user":{"name":"guest"}}'),
            fastify: answer(200, '{"user":null}'),
            probes: [],
          },
        ],
      },
    },
  };
}

const ratio = (scenario: string, median: number) => ({
  judged: true,
  runtime: 'node@26.10.0',
  scenario,
  verdict: 'inconclusive',
  summary: { median, ci: { low: median * 0.9, high: median * 1.1 } },
});

describe('switchingCost', () => {
  const cost = switchingCost(ownAppResults().ownApp, [ratio('notes', 2), ratio('other', 1.5)] as any, []);

  it('is null for a run without --nest-app', () => {
    expect(switchingCost(undefined, [], [])).toBeNull();
  });

  it('ties the code to its route and shows the route’s own difference with both answers', () => {
    const code = cost?.findings.find((f) => f.source === 'code');
    expect(code).toMatchObject({ route: 'GET /notes/:id/card', where: 'src/notes.controller.ts:27', kind: 'breaks' });
    const lostUser = cost?.findings.find((f) => f.route === 'GET /me' && f.source === 'request');
    expect(lostUser?.answers?.express.body).toBe('{"user":{"name":"guest"}}');
    expect(lostUser?.answers?.fastify.body).toBe('{"user":null}');
    expect(cost?.brokenRoutes).toEqual(['GET /notes/:id/card', 'GET /me']);
  });

  it('counts a probe’s fix once however many routes it shows on, and shows it as one row naming them', () => {
    const slash = cost?.findings.filter((f) => f.what === 'trailing slash') ?? [];
    expect(slash).toHaveLength(1);
    expect(slash[0].alsoOn).toEqual(['GET /notes/:id/card']);
    expect(cost?.byKind).toEqual({ breaks: 3, differs: 2, plugin: 0, works: 0, ifRemoved: 0 });
    // the line of code, the route without code found (GET /me), the trailing slash's adapter option
    expect(cost?.places).toBe(3);
  });

  it('ties a route whose error names a line the scan found outside any handler to that line, as no place of its own', () => {
    const results = ownAppResults();
    const helper = {
      rule: 'request.header',
      kind: 'breaks',
      file: 'src/request-context.ts',
      line: 14,
      code: "ctx.requestId = request.header('x-request-id');",
      handler: null,
      onFastify: 'the request has no header(): TypeError',
      fix: 'request.headers[name]',
    };
    results.ownApp.scan.findings.push(helper, { ...helper, line: 16 });
    results.ownApp.compatibility.routes[2].fastify = {
      ...answer(500, '{}'),
      error: 'TypeError: request.header is not a function',
    };
    const named = switchingCost(results.ownApp, [], []);
    const me = named?.findings.find((f) => f.route === 'GET /me' && f.source === 'request');
    expect(me?.fix).toBe('the code its error names: src/request-context.ts:14, src/request-context.ts:16');
    expect(me?.place).toBe('code of GET /me');
    // the two helper lines and the handler's line, the trailing slash's option: GET /me is no place of its own
    expect(named?.places).toBe(4);
    // nothing logged: the message is in the 500 Nest answered when the app's exception filter failed too
    results.ownApp.compatibility.routes[2].fastify = answer(
      500,
      '{"statusCode":500,"error":"Internal Server Error","message":"request.header is not a function"}',
    );
    const answered = switchingCost(results.ownApp, [], []);
    expect(answered?.findings.find((f) => f.route === 'GET /me' && f.source === 'request')?.fix).toBe(me?.fix);
  });

  it('says the adapters’ defaults as not probed where every route failed on Fastify first, less what the setup gives', () => {
    const results = ownAppResults();
    const failing = results.ownApp.compatibility.routes.slice(1).map((r: any) => ({ ...r, probes: [] }));
    results.ownApp.compatibility.routes = failing;
    results.ownApp.scan.installed = { fastify: '4.28.1' };
    const masked = switchingCost(results.ownApp, [], [])?.findings.find((f) => f.what === 'not probed');
    expect(masked).toMatchObject({
      kind: 'differs',
      request: 'GET /notes/1/card',
      fix: 'new FastifyAdapter({ ignoreTrailingSlash: true, caseSensitive: false, bodyLimit: 102400 })',
    });
    expect(masked?.onFastify).toMatch(
      /^every route failed on Fastify before its probes could show more; .*Fastify 4\.28\.1/,
    );
    results.ownApp.adapters = { fastify: 'adapterOptions.fastify {"routerOptions":{"ignoreTrailingSlash":true}}' };
    results.ownApp.scan.installed = { fastify: '5.1.0' };
    expect(switchingCost(results.ownApp, [], [])?.findings.find((f) => f.what === 'not probed')?.fix).toBe(
      'new FastifyAdapter({ routerOptions: { caseSensitive: false }, bodyLimit: 102400 })',
    );
    // a route that answered alike was probed: nothing is said as not probed
    expect(cost?.findings.some((f) => f.what === 'not probed')).toBe(false);
  });

  it('without a traffic mix, weighs the gain as the routes’ geometric mean with the lowest and highest', () => {
    expect(cost?.gains).toEqual([
      { runtime: 'node@26.10.0', scenario: null, ratio: Math.sqrt(3), low: 1.5, high: 2, verdict: null, routes: 2 },
    ]);
  });
});

describe('startupRows', () => {
  it('summarises each adapter’s starts and reads its memory after its last timed run', () => {
    const start = (target: string, readyMs: number, rssMiB: number) => ({
      runtime: 'node@26.10.0',
      target,
      start: 0,
      readyMs,
      rssMiB,
      heapUsedMiB: rssMiB / 4,
      runtimeFlags: [],
    });
    const rows = startupRows({
      coldStarts: [start('nest-express', 300, 80), start('nest-express', 320, 90), start('nest-express', 310, 85)],
      runs: [
        {
          runtime: 'node@26.10.0',
          target: 'nest-express',
          startedAt: '2026-01-01T00:00:02Z',
          state: { heapAfter: { rssMiB: 150, heapUsedMiB: 40 } },
        },
        {
          runtime: 'node@26.10.0',
          target: 'nest-express',
          startedAt: '2026-01-01T00:00:01Z',
          state: { heapAfter: { rssMiB: 120, heapUsedMiB: 30 } },
        },
      ],
    } as any);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ target: 'nest-express', bootRssMiB: 85, endRssMiB: 150, endHeapMiB: 40 });
    expect(rows[0].readyMs).toMatchObject({ n: 3, median: 310 });
  });
});
