import { startupRows } from '../../../../bench/analysis/startup.js';
import type { OwnAppRecord } from '../../../../bench/model/own-app-record.js';
import { NOTHING_INSTALLED } from '../../../../bench/own-app/launch/app-packages.js';
import type { CodeFinding, ScanRecord } from '../../../../bench/own-app/scan/scan.js';
import { recordedFindings } from '../../../../bench/own-app/findings/switching.js';
import { switchingCost as summed } from '../../../../bench/analysis/switching-cost.js';
import type { RatioRow } from '../../../../bench/analysis/rows.js';
import type { SwitchAtRate } from '../../../../bench/analysis/switch-at-rate.js';
import { graphqlUpload } from '../../../../bench/own-app/bodies/upload-form.js';
import { compare } from '../../../../bench/own-app/check/compatibility.js';
import { BODY_PARSER_IN_APP_USE, CORS_ORIGIN_FROM_VALUE } from '../../../../bench/own-app/scan/app-differences.js';
import { compatibilityTable } from '../../../../bench/report/own-app-tables.js';
import { checkChanges } from '../../../../bench/analysis/own-app-facts.js';
import type { Results } from '../../../../bench/model/results.js';
import { answerOf as answer, ownAppRecord, routeCompatibility, routeEntry } from '../../support/own-app-record.js';
import { heapOf, judgedRatio, results as syntheticResults, serverState } from '../../support/synthetic-results.js';

/** What the analysis sums from a record whose check recorded its findings, as a run's check does. */
const switchingCost = (record: Parameters<typeof summed>[0], ratios: RatioRow[], atRate: SwitchAtRate[]) =>
  summed(record && { ...record, findings: recordedFindings(record) }, ratios, atRate);

const RUNTIME = 'node@26.10.0';

const SCAN: ScanRecord = {
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
};

/** An app of three routes: one alike on both adapters, one whose code breaks on Fastify, one that loses its user. */
function ownApp(): { record: OwnAppRecord; scan: ScanRecord } {
  const record = ownAppRecord({
    routes: [
      routeEntry({ method: 'GET', path: '/notes', handler: 'NotesController.list', scenario: 'notes' }),
      routeEntry({
        method: 'GET',
        path: '/notes/:id/card',
        handler: 'NotesController.card',
        scenario: null,
        request: 'GET /notes/1/card',
      }),
      routeEntry({ method: 'GET', path: '/me', handler: 'AccountController.me', scenario: null }),
    ],
    compatibility: {
      startFailure: null,
      routes: [
        routeCompatibility({
          scenario: 'notes',
          request: 'GET /notes',
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
        }),
        routeCompatibility({
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
        }),
        routeCompatibility({
          scenario: 'me',
          request: 'GET /me',
          same: false,
          difference: 'body',
          express: answer(200, '{"user":{"name":"guest"}}'),
          fastify: answer(200, '{"user":null}'),
          probes: [],
        }),
      ],
    },
  });
  const scan = { ...SCAN, findings: [...SCAN.findings] };
  return { record: { ...record, scan }, scan };
}

const ratio = (scenario: string, median: number) => judgedRatio(RUNTIME, scenario, median, 'inconclusive');

describe('switchingCost', () => {
  const cost = switchingCost(ownApp().record, [ratio('notes', 2), ratio('other', 1.5)], []);

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
    // the counts are the rows listed: the trailing slash once
    expect(cost?.byKind).toEqual({ breaks: 3, differs: 1, plugin: 0, works: 0, ifRemoved: 0 });
    // the line of code, the route without code found (GET /me), the trailing slash's adapter option
    expect(cost?.places).toBe(3);
  });

  it('ties a route whose error names a line the scan found outside any handler to that line, as no place of its own', () => {
    const { record, scan } = ownApp();
    const helper: CodeFinding = {
      rule: 'request.header',
      kind: 'breaks',
      file: 'src/request-context.ts',
      line: 14,
      code: "ctx.requestId = request.header('x-request-id');",
      handler: null,
      onFastify: 'the request has no header(): TypeError',
      fix: 'request.headers[name]',
    };
    scan.findings.push(helper, { ...helper, line: 16 });
    record.compatibility.routes[2].fastify = {
      ...answer(500, '{}'),
      error: 'TypeError: request.header is not a function',
    };
    const named = switchingCost(record, [], []);
    const me = named?.findings.find((f) => f.route === 'GET /me' && f.source === 'request');
    expect(me?.fix).toBe('the code its error names: src/request-context.ts:14, src/request-context.ts:16');
    expect(me?.place).toBe('code of GET /me');
    // the two helper lines and the handler's line, the trailing slash's option: GET /me is no place of its own
    expect(named?.places).toBe(4);
    // nothing logged: the message is in the 500 Nest answered when the app's exception filter failed too
    record.compatibility.routes[2].fastify = answer(
      500,
      '{"statusCode":500,"error":"Internal Server Error","message":"request.header is not a function"}',
    );
    const answered = switchingCost(record, [], []);
    expect(answered?.findings.find((f) => f.route === 'GET /me' && f.source === 'request')?.fix).toBe(me?.fix);
  });

  it('gives a probe Fastify failed on the line its error names: an exception filter reached by the path it does not route', () => {
    const { record, scan } = ownApp();
    scan.findings.push({
      rule: 'response.json',
      kind: 'breaks',
      file: 'src/filters/global-exception.filter.ts',
      line: 62,
      code: 'response.status(error.statusCode).json(error);',
      handler: null,
      onFastify: 'the reply has no json()',
      fix: 'return the value',
    });
    const crash = {
      ...answer(500, '{"statusCode":500,"message":"response.status(...).json is not a function"}'),
      error: 'TypeError: response.status(...).json is not a function',
    };
    record.compatibility.routes[0].probes = [
      {
        probe: 'trailing slash',
        request: 'GET /notes/',
        difference: 'status 200 → 500',
        express: answer(200, '[]'),
        fastify: crash,
      },
      {
        probe: 'cookies',
        request: 'GET /notes',
        difference: 'status 200 → 500',
        express: answer(200, '[]'),
        fastify: { ...answer(500, '{}'), error: 'TypeError: x is not defined' },
      },
    ];
    const found = switchingCost(record, [], []);
    const slash = found?.findings.find((f) => f.source === 'probe' && f.what === 'trailing slash');
    expect(slash?.fix).toBe(
      'the code its error names: src/filters/global-exception.filter.ts:62; once it is fixed, a run shows Fastify’s own answer to this request',
    );
    // an error no scanned line names keeps the probe's own fix
    const cookies = found?.findings.find((f) => f.source === 'probe' && f.what === 'cookies');
    expect(cookies?.fix).toBe('the error Fastify logged (its answer) names what failed on this request');
  });

  it('leads with a global filter once, with the routes it reaches and the answers it explains folded under it', () => {
    const { record, scan } = ownApp();
    scan.findings.push({
      rule: 'response.json',
      kind: 'breaks',
      file: 'src/filters/global-exception.filter.ts',
      line: 14,
      code: 'response.status(status).json({',
      handler: 'GlobalExceptionFilter.catch',
      onFastify: 'the filter gets Fastify’s reply, which has no json()',
      fix: 'response.status(status).send(body)',
      shared: { role: 'filter', name: 'GlobalExceptionFilter', registered: 'src/main.ts:12', routes: null },
    });
    const crash = {
      ...answer(500, '{"statusCode":500,"message":"Internal server error"}'),
      error: 'TypeError: response.status(...).json is not a function',
    };
    record.compatibility.routes[2] = {
      ...record.compatibility.routes[2],
      difference: 'status 400 → 500',
      express: answer(400, '{"error":{"status":400}}'),
      fastify: crash,
      probes: [
        {
          probe: 'trailing slash',
          request: 'GET /me/',
          difference: 'status 200 → 500',
          express: answer(200, '{}'),
          fastify: crash,
        },
      ],
    };
    const found = switchingCost(record, [], []);
    const [lead] = found?.findings ?? [];
    expect(lead).toMatchObject({ where: 'src/filters/global-exception.filter.ts:14', reach: 3 });
    expect(lead.shared?.symptoms.map((s) => `${s.request} ${s.express} → ${s.fastify}`)).toEqual(['GET /me 400 → 500']);
    // its symptom is no row of its own; a trailing slash Express served stays a difference of its own
    expect(found?.findings.filter((f) => f.route === 'GET /me').map((f) => f.what)).toEqual(['trailing slash']);
    const rows = found?.findings.filter((f) => f.kind === 'breaks').length;
    expect(found?.byKind.breaks).toBe(rows);
  });

  it('folds a refusal the comparison saw under the filter, where the route’s first answer on Express was a success', () => {
    // conduit's PUT /api/articles/:slug: the first send renamed the slug, so the compared sends met 404 → 500
    const { record, scan } = ownApp();
    scan.findings.push({
      rule: 'response.json',
      kind: 'breaks',
      file: 'src/filters/entity-not-found.filter.ts',
      line: 11,
      code: 'response.status(404).json({',
      handler: 'EntityNotFoundFilter.catch',
      onFastify: 'the filter gets Fastify’s reply, which has no json()',
      fix: 'response.status(404).send(body)',
      shared: { role: 'filter', name: 'EntityNotFoundFilter', registered: 'src/main.ts:9', routes: null },
    });
    record.compatibility.routes[2] = {
      ...record.compatibility.routes[2],
      difference: 'status 404 → 500',
      express: answer(200, '{"article":{}}'),
      fastify: { ...answer(500, '{}'), error: 'TypeError: response.status(...).json is not a function' },
    };
    const found = switchingCost(record, [], [])!;
    expect(found.findings[0].shared?.symptoms.map((s) => `${s.request} ${s.express} → ${s.fastify}`)).toEqual([
      'GET /me 404 → 500',
    ]);
    expect(found.findings.filter((f) => f.request === 'GET /me')).toEqual([]);
  });

  it('leads, between causes of equal reach, with the one the answers name: a filter that failed before a body parser no answer blamed', () => {
    const { record, scan } = ownApp();
    scan.findings.push(
      {
        rule: "app.use(express.json({ limit: '1mb' }))",
        kind: 'breaks',
        file: 'src/main.ts',
        line: 12,
        code: "app.use(express.json({ limit: '1mb' }));",
        handler: null,
        onFastify: 'Express middleware reads the body Fastify has already parsed',
        fix: "app.useBodyParser('json', { bodyLimit: 1048576 })",
        middleware: 'express',
      },
      {
        rule: 'response.json',
        kind: 'breaks',
        file: 'src/filters/global-exception.filter.ts',
        line: 14,
        code: 'response.status(status).json({',
        handler: 'GlobalExceptionFilter.catch',
        onFastify: 'the filter gets Fastify’s reply, which has no json()',
        fix: 'response.status(status).send(body)',
        shared: { role: 'filter', name: 'GlobalExceptionFilter', registered: 'src/main.ts:20', routes: null },
      },
    );
    const crash = { ...answer(500, '{"message":"response.status(...).json is not a function"}'), error: null };
    record.compatibility.routes[2] = {
      ...record.compatibility.routes[2],
      probes: [
        {
          probe: 'other case',
          request: 'GET /ME',
          difference: 'status 200 → 500',
          express: answer(200, '{}'),
          fastify: crash,
        },
      ],
    };
    const found = switchingCost(record, [], []);
    expect(found?.findings.slice(0, 2).map((f) => [f.where, f.reach, f.shared?.named])).toEqual([
      ['src/filters/global-exception.filter.ts:14', 3, 1],
      ['src/main.ts:12', 3, 0],
    ]);
  });

  it('ranks middleware given to app.use by every route it runs for, where a line tied to no route ranked last', () => {
    const { record, scan } = ownApp();
    scan.findings.push({
      rule: 'app.use(cookie-parser)',
      kind: 'plugin',
      file: 'src/setup.ts',
      line: 6,
      code: 'app.use(cookieParser());',
      handler: null,
      onFastify: 'cookie-parser sets req.cookies on the raw request',
      fix: 'await app.register(fastifyCookie)',
      middleware: 'cookie-parser',
    });
    const found = switchingCost(record, [], []);
    const cookies = found?.findings.find((f) => f.where === 'src/setup.ts:6');
    expect(cookies).toMatchObject({
      route: null,
      reach: 3,
      shared: { role: 'middleware', registered: 'src/setup.ts:6' },
    });
    // it leads the rows that ask for a change, each tied to one route
    expect(found?.findings.findIndex((f) => f === cookies)).toBe(0);
  });

  it('folds what middleware given to app.use explains under it: a body never answered, cookies Fastify did not read', () => {
    const { record, scan } = ownApp();
    scan.findings.push(
      {
        rule: "app.use(express.json({ limit: '1mb' }))",
        ...BODY_PARSER_IN_APP_USE,
        file: 'src/main.ts',
        line: 12,
        code: "app.use(express.json({ limit: '1mb' }));",
        handler: null,
      },
      {
        rule: 'app.use(cookie-parser)',
        kind: 'plugin',
        file: 'src/main.ts',
        line: 13,
        code: 'app.use(cookieParser());',
        handler: null,
        onFastify: 'cookie-parser sets req.cookies on the raw request',
        fix: 'await app.register(fastifyCookie)',
        middleware: 'cookie-parser',
      },
      {
        rule: 'req.cookies',
        kind: 'plugin',
        file: 'src/notes.controller.ts',
        line: 40,
        code: 'return { cart: req.cookies?.cart };',
        handler: 'NotesController.list',
        onFastify: 'request.cookies is undefined without @fastify/cookie',
        fix: 'register @fastify/cookie; request.cookies then holds them',
      },
    );
    record.routes.push(
      routeEntry({ method: 'POST', path: '/notes', handler: 'NotesController.create', scenario: null }),
    );
    const none = { ...answer(200, ''), status: null, error: 'request failed: no answer within 10 s' };
    record.compatibility.routes[0].probes!.push({
      probe: 'cookies',
      request: 'GET /notes',
      difference: 'body',
      express: answer(200, '{"cart":"probe"}'),
      fastify: answer(200, '{"cart":null}'),
    });
    record.compatibility.routes.push(
      routeCompatibility({
        scenario: 'post-notes',
        request: 'POST /notes',
        same: false,
        difference: 'status 201 → none',
        express: answer(201, '{"id":1}'),
        fastify: none,
        probes: [],
      }),
    );
    const found = switchingCost(record, [], [])!;
    const parser = found.findings.find((f) => f.where === 'src/main.ts:12')!;
    const cookies = found.findings.find((f) => f.where === 'src/main.ts:13')!;
    expect(parser.shared?.symptoms.map((s) => `${s.request} ${s.express} → ${s.fastify}`)).toEqual([
      'POST /notes 201 → null',
    ]);
    expect(cookies.shared?.symptoms.map((s) => [s.source, s.where ?? s.request])).toEqual([
      ['code', 'src/notes.controller.ts:40'],
      ['probe', 'GET /notes'],
    ]);
    // no row of their own: counted once, under the cause whose fix they need
    expect(
      found.findings.filter((f) => f.request === 'POST /notes' || f.what === 'cookies' || f.what === 'req.cookies'),
    ).toEqual([]);
    expect(found.byKind.plugin).toBe(1);
    expect(found.byKind.breaks).toBe(found.findings.filter((f) => f.kind === 'breaks').length);
    expect(found.brokenRoutes).toContain('POST /notes');
  });

  it('leads with a CORS origin read from an empty value, the 500s @fastify/cors gave every route folded under it', () => {
    // Tony133's main.ts:27: origin from ENDPOINT_CORS, which its .env.example leaves empty
    const { record, scan } = ownApp();
    scan.findings.push({
      rule: 'app.enableCors() origin from a value',
      ...CORS_ORIGIN_FROM_VALUE,
      file: 'src/main.ts',
      line: 28,
      code: "origin: configService.get<string>('ENDPOINT_CORS'),",
      handler: null,
    });
    const refused = { ...answer(500, '{"statusCode":500}'), error: 'Error: Invalid CORS origin option' };
    record.compatibility.routes[0] = {
      ...record.compatibility.routes[0],
      same: false,
      difference: 'status 200 → 500',
      fastify: refused,
      probes: [],
    };
    record.compatibility.routes[2] = {
      ...record.compatibility.routes[2],
      fastify: refused,
      difference: 'status 200 → 500',
    };
    const found = switchingCost(record, [], [])!;
    const [lead] = found.findings;
    expect(lead).toMatchObject({ where: 'src/main.ts:28', reach: 3, kind: 'breaks' });
    expect(lead.shared?.symptoms.map((s) => s.request)).toEqual(['GET /notes', 'GET /me']);
    expect(found.findings.filter((f) => f.request === 'GET /notes' || f.request === 'GET /me')).toEqual([]);
    expect(found.byKind.breaks).toBe(found.findings.filter((f) => f.kind === 'breaks').length);
  });

  it('states a route sent a file and refused on Fastify from its answers, at its interceptor’s line, counted with it', () => {
    const interceptor: CodeFinding = {
      rule: "FileInterceptor('file')",
      kind: 'plugin',
      file: 'src/files.controller.ts',
      line: 52,
      code: "@UseInterceptors(FileInterceptor('file'))",
      handler: 'FilesController.upload',
      onFastify: 'multer reads Express’s request',
      fix: 'register @fastify/multipart',
      files: [{ field: 'file', count: 1 }],
    };
    const upload = {
      fields: [{ field: 'file', count: 1 }],
      filename: 'photo.gif',
      type: 'image/gif',
      bytes: 4096,
      interceptor: interceptor.rule,
      where: 'src/files.controller.ts:52',
    };
    const record = ownAppRecord({
      routes: [
        routeEntry({
          method: 'POST',
          path: '/files/upload',
          handler: 'FilesController.upload',
          scenario: null,
          upload,
        }),
        routeEntry({ method: 'GET', path: '/files', handler: 'FilesController.list', scenario: 'files' }),
      ],
      compatibility: {
        startFailure: null,
        routes: [
          routeCompatibility({
            scenario: 'post-files-upload',
            request: 'POST /files/upload',
            same: false,
            difference: 'status 201 → 415',
            express: answer(201, '{"file":{"id":"f1"}}'),
            fastify: { ...answer(415, '{}'), refusal: 'Unsupported Media Type: multipart/form-data' },
          }),
          // a route alike on both, so the adapters' defaults are not said as unprobed
          routeCompatibility({ scenario: 'files', request: 'GET /files' }),
        ],
      },
      scan: { ...SCAN, findings: [interceptor] },
    });
    const found = switchingCost(record, [], []);
    // one row at the interceptor's line, with the route's answers
    const atLine = found?.findings.filter((f) => f.where === 'src/files.controller.ts:52') ?? [];
    expect(atLine).toHaveLength(1);
    const row = atLine[0];
    expect(row).toMatchObject({ kind: 'plugin', source: 'request', route: 'POST /files/upload' });
    expect(found?.byKind.plugin).toBe(1);
    expect(row?.onFastify).toContain('Express answered 201, Fastify 415 Unsupported Media Type');
    expect(row?.fix).toContain('@fastify/multipart (await app.register(multipart)) and take the file');
    // the interceptor's line and the route's answer are one change
    expect(found?.places).toBe(1);
  });

  it('states a GraphQL operation sent a file and refused on Fastify at its own route where the scan found no parser', () => {
    const upload = graphqlUpload(['variables.file'], null);
    const record = ownAppRecord({
      routes: [
        routeEntry({
          method: 'POST',
          path: '/graphql',
          handler: 'GraphQL mutation uploadFile',
          // as checkedRoutes leaves an operation that differs: out of the run, its check's scenario kept
          scenario: null,
          checked: 'graphql-upload-file',
          request: 'POST /graphql mutation uploadFile',
          graphql: 'mutation',
          upload,
        }),
      ],
      compatibility: {
        startFailure: null,
        routes: [
          routeCompatibility({
            scenario: 'graphql-upload-file',
            // the check's request line names the endpoint alone
            request: 'POST /graphql',
            same: false,
            difference: 'status 200 → 415',
            express: answer(200, '{"data":{"uploadFile":"https://bucket/photo.gif"}}'),
            fastify: { ...answer(415, '{}'), refusal: 'Unsupported Media Type: multipart/form-data' },
          }),
        ],
      },
    });
    const row = switchingCost(record, [], [])?.findings.find((f) => f.source === 'request');
    expect(row).toMatchObject({
      kind: 'plugin',
      route: 'POST /graphql · mutation uploadFile',
      where: null,
      code: null,
      place: 'route POST /graphql · mutation uploadFile',
    });
    expect(row?.onFastify).toContain('as a GraphQL multipart request, in $file');
    expect(row?.fix).toContain('processRequest');
  });

  it('names each GraphQL operation beside its endpoint, in a route that differs and in a probe’s other routes', () => {
    const operation = (kind: string, name: string, scenario: string) =>
      routeEntry({
        method: 'POST',
        path: '/graphql',
        handler: `GraphQL ${kind} ${name}`,
        scenario,
        request: `POST /graphql ${kind} ${name}`,
        graphql: kind as 'query' | 'mutation',
      });
    const capitals = () => ({
      probe: 'other case',
      request: 'POST /GRAPHQL',
      difference: 'status 200 → 404',
      express: answer(200, '{"data":{}}'),
      fastify: answer(404, '{}'),
    });
    const record = ownAppRecord({
      routes: [
        routeEntry({
          method: 'POST',
          path: '/graphql',
          handler: 'GraphQL endpoint (ApolloDriver)',
          scenario: null,
          graphql: 'endpoint',
        }),
        operation('query', 'getMe', 'graphql-get-me'),
        operation('mutation', 'updateUser', 'graphql-update-user'),
      ],
      compatibility: {
        startFailure: null,
        routes: [
          routeCompatibility({
            scenario: 'graphql-get-me',
            request: 'POST /graphql query getMe',
            probes: [capitals()],
          }),
          routeCompatibility({
            scenario: 'graphql-update-user',
            request: 'POST /graphql mutation updateUser',
            same: false,
            difference: 'status 200 → 500',
            express: answer(200, '{"data":{}}'),
            fastify: answer(500, '{}'),
            probes: [capitals()],
          }),
        ],
      },
      scan: SCAN,
    });
    const found = switchingCost(record, [], []);
    expect(found?.brokenRoutes).toEqual(['POST /graphql · mutation updateUser']);
    expect(found?.findings.find((f) => f.source === 'request')?.route).toBe('POST /graphql · mutation updateUser');
    const probe = found?.findings.find((f) => f.what === 'other case');
    // one row for the probe, naming each operation it showed on
    expect([probe?.route ?? '', ...(probe?.alsoOn ?? [])].sort((a, b) => a.localeCompare(b))).toEqual([
      'POST /graphql · mutation updateUser',
      'POST /graphql · query getMe',
    ]);
  });

  it('says the adapters’ defaults as not probed where every route failed on Fastify first, less what the setup gives', () => {
    const { record, scan } = ownApp();
    const failing = record.compatibility.routes.slice(1).map((route) => ({ ...route, probes: [] }));
    record.compatibility.routes = failing;
    scan.installed = { ...NOTHING_INSTALLED, fastify: '4.28.1' };
    const masked = switchingCost(record, [], [])?.findings.find((f) => f.what === 'not probed');
    expect(masked).toMatchObject({
      kind: 'differs',
      request: 'GET /notes/1/card',
      fix: 'new FastifyAdapter({ ignoreTrailingSlash: true, caseSensitive: false, bodyLimit: 102400 })',
    });
    expect(masked?.onFastify).toMatch(
      /^every route failed on Fastify before its probes could show more; .*Fastify 4\.28\.1/,
    );
    record.adapters = { fastify: 'adapterOptions.fastify {"routerOptions":{"ignoreTrailingSlash":true}}' };
    scan.installed = { ...NOTHING_INSTALLED, fastify: '5.1.0' };
    expect(switchingCost(record, [], [])?.findings.find((f) => f.what === 'not probed')?.fix).toBe(
      'new FastifyAdapter({ routerOptions: { caseSensitive: false }, bodyLimit: 102400 })',
    );
    // a route that answered alike was probed: nothing is said as not probed
    expect(cost?.findings.some((f) => f.what === 'not probed')).toBe(false);
  });

  it('without a traffic mix, weighs the gain as the routes’ geometric mean with the lowest and highest', () => {
    expect(cost?.gains).toEqual([
      {
        runtime: RUNTIME,
        scenario: null,
        ratio: Math.sqrt(3),
        low: 1.5,
        high: 2,
        verdict: null,
        routes: 2,
        atRate: null,
      },
    ]);
  });
});

describe('a route whose answers differ only in their content type', () => {
  const typed = (contentType: string) => ({
    status: 200,
    contentType: contentType.split(';')[0],
    body: 'Hello World!',
    error: null,
    setCookies: [],
    headers: { 'content-type': contentType },
  });
  const express = typed('text/html; charset=utf-8');
  const found = compare('api', 'GET /api', express, typed('text/plain; charset=utf-8'), express);
  const record = ownAppRecord({
    routes: [routeEntry({ method: 'GET', path: '/api', scenario: 'api' })],
    compatibility: { startFailure: null, routes: [found] },
  });

  it('behaves differently, naming both content-type values, and breaks nothing', () => {
    const cost = switchingCost(record, [], []);
    expect(cost?.findings).toEqual([
      expect.objectContaining({
        kind: 'differs',
        route: 'GET /api',
        onFastify: expect.stringContaining(
          'the same status (200) and body, with content-type text/html; charset=utf-8 on Express and text/plain; charset=utf-8 on Fastify',
        ),
      }),
    ]);
    expect(cost?.byKind.breaks).toBe(0);
    expect(cost?.brokenRoutes).toEqual([]);
  });

  it('is not among the routes left untimed in What changes on Fastify', () => {
    expect(compatibilityTable(checkChanges(record)).rows).toEqual([]);
  });
});

describe('startupRows', () => {
  it('summarises each adapter’s starts and reads its memory after its last timed run', () => {
    const start = (target: string, readyMs: number, rssMiB: number) => ({
      runtime: RUNTIME,
      target,
      start: 0,
      readyMs,
      rssMiB,
      heapUsedMiB: rssMiB / 4,
      runtimeFlags: [],
    });
    const recorded = syntheticResults(() => 1, { runtime: RUNTIME });
    const [timedRun] = recorded.runs;
    const results: Results = {
      ...recorded,
      coldStarts: [start('nest-express', 300, 80), start('nest-express', 320, 90), start('nest-express', 310, 85)],
      runs: [
        {
          ...timedRun,
          target: 'nest-express',
          startedAt: '2026-01-01T00:00:02Z',
          state: serverState(null, heapOf(150, 40)),
        },
        {
          ...timedRun,
          target: 'nest-express',
          startedAt: '2026-01-01T00:00:01Z',
          state: serverState(null, heapOf(120, 30)),
        },
      ],
    };
    const rows = startupRows(results);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ target: 'nest-express', bootRssMiB: 85, endRssMiB: 150, endHeapMiB: 40 });
    expect(rows[0].readyMs).toMatchObject({ n: 3, median: 310 });
  });
});
