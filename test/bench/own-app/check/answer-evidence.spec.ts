import { judgedByAnswers } from '../../../../bench/own-app/check/answer-evidence.js';
import type { AdapterAnswer, RouteCompatibility } from '../../../../bench/own-app/check/compatibility.js';
import type { CodeFinding } from '../../../../bench/own-app/scan/scan.js';

const finding = (rule: string, middleware?: string): CodeFinding => ({
  rule,
  kind: middleware ? 'works' : 'breaks',
  file: 'src/main.ts',
  line: 3,
  code: rule,
  handler: null,
  onFastify: 'statement',
  fix: 'fix',
  ...(middleware ? { middleware } : {}),
});
const answer = (headers: Record<string, string> = {}): AdapterAnswer => ({
  status: 200,
  contentType: 'application/json',
  error: null,
  headers,
});
const route = (request: string, express: AdapterAnswer, fastify: AdapterAnswer) =>
  ({ request, express, fastify, probes: [] }) as unknown as RouteCompatibility;
const record = (routes: RouteCompatibility[], methods = ['GET']) => ({
  routes: methods.map((method) => ({ method })),
  compatibility: { routes },
});
const HELMET = { 'x-content-type-options': 'nosniff' };
const GZIP = { 'content-encoding': 'gzip' };

describe('judgedByAnswers: middleware given to app.use, judged by what the app answered', () => {
  it('says helmet works where Fastify’s answers carry its headers as Express’s do', () => {
    const judged = judgedByAnswers(
      finding('app.use(helmet)', 'helmet'),
      record([route('GET /a', answer(HELMET), answer(HELMET)), route('GET /b', answer(HELMET), answer(HELMET))]),
    );
    expect(judged.kind).toBe('works');
    expect(judged.onFastify).toMatch(/seen, helmet’s headers on Fastify’s answers as on Express’s \(2 of 2 routes\)/);
  });

  it('calls it a difference where Fastify’s answers lack them', () => {
    const judged = judgedByAnswers(
      finding('app.use(compression)', 'compression'),
      record([route('GET /a', answer(GZIP), answer()), route('GET /b', answer(GZIP), answer(GZIP))]),
    );
    expect(judged.kind).toBe('differs');
    expect(judged.onFastify).toMatch(/not on Fastify’s for 1 of 2 routes \(GET \/a\)/);
  });

  it('says what was not seen, without claiming it', () => {
    const judged = judgedByAnswers(
      finding('app.use(compression)', 'compression'),
      record([route('GET /a', answer(), answer())]),
    );
    expect(judged.kind).toBe('works');
    expect(judged.onFastify).toMatch(/not seen: no answer on either adapter carried compressed answers/);
  });

  it('keeps CORS without methods a break only where a route takes a method browsers preflight', () => {
    const cors = finding('app.enableCors() without methods');
    expect(judgedByAnswers(cors, record([], ['GET', 'PATCH'])).kind).toBe('breaks');
    expect(judgedByAnswers(cors, record([], ['GET', 'PATCH'])).onFastify).toMatch(/your routes take PATCH/);
    expect(judgedByAnswers(cors, record([], ['GET', 'POST'])).kind).toBe('works');
  });

  it('leaves other findings as the scan made them', () => {
    const json = finding('res.json');
    expect(judgedByAnswers(json, record([]))).toBe(json);
  });

  it('reads a setup module’s app.enable past which Fastify booted as kept to Express, and main.ts’s as it is', () => {
    const setup = '/srv/bench/setup.cjs';
    const inSetup = { ...finding("app.enable('trust proxy')"), file: setup };
    const booted = { ...record([route('GET /x', answer(), answer())]), setup };
    expect(judgedByAnswers(inSetup, booted)).toMatchObject({ kind: 'works', fix: expect.stringMatching(/main\.ts/) });
    expect(judgedByAnswers(finding("app.enable('trust proxy')"), booted).kind).toBe('breaks');
    const failed = { ...booted, bootFailure: { adapter: 'fastify' } };
    expect(judgedByAnswers(inSetup, failed).kind).toBe('breaks');
  });

  it('says a line outside the setup module that would keep Fastify from booting did not run, where Fastify booted', () => {
    // vndevteam's Swagger runs only in development (main.ts), and the bench runs production
    const swagger = {
      ...finding('SwaggerModule.setup without @fastify/static'),
      file: 'src/utils/setup-swagger.ts',
      onFastify: 'Fastify does not boot: SwaggerModule.setup serves its UI through @fastify/static',
    };
    const booted = { ...record([route('GET /x', answer(), answer())]), setup: '/srv/bench/setup.cjs' };
    expect(judgedByAnswers(swagger, booted)).toMatchObject({
      kind: 'breaks',
      onFastify: expect.stringMatching(
        /^Fastify booted in this run, which did not run this line .*; where it runs: Fastify does not boot/,
      ),
    });
    const failed = { ...booted, bootFailure: { adapter: 'fastify' } };
    expect(judgedByAnswers(swagger, failed).onFastify).toBe(swagger.onFastify);
  });

  it('leaves a line --nest-main ran as it is: Fastify booted because the bench skipped it there', () => {
    // school_feed's setupSwagger(app) from main.ts: useStaticAssets without @fastify/static, skipped on Fastify
    const swagger = {
      ...finding('SwaggerModule.setup without @fastify/static'),
      file: 'src/common/swagger/setup-swagger.ts',
      onFastify: 'Fastify does not boot: SwaggerModule.setup serves its UI through @fastify/static',
    };
    const booted = { ...record([route('GET /x', answer(), answer())]), setup: null, main: '/srv/app/dist/main.js' };
    expect(judgedByAnswers(swagger, booted)).toEqual(swagger);
    const named = { ...booted, measuredWithout: [`${swagger.file}:${swagger.line}`] };
    expect(judgedByAnswers(swagger, named)).toEqual(swagger);
  });

  it('words a line --nest-main did not run, where Fastify booted, under the condition that keeps it out', () => {
    // Tony133's configure-swagger-docs.helper.ts: Swagger only where NODE_ENV is not production, the bench's
    const swagger = {
      ...finding('SwaggerModule.setup()'),
      file: 'src/helpers/configure-swagger-docs.helper.ts',
      line: 23,
      condition: "configService.get('NODE_ENV') !== 'production'",
      onFastify: 'Fastify does not boot: SwaggerModule.setup serves its UI through @fastify/static',
    };
    const booted = {
      ...record([route('GET /x', answer(), answer())]),
      setup: null,
      main: '/srv/app/dist/main.js',
      measuredWithout: [],
      nodeEnv: 'production',
    };
    expect(judgedByAnswers(swagger, booted)).toMatchObject({
      kind: 'breaks',
      onFastify:
        "Fastify booted in this run (NODE_ENV=production), which did not run this line (it runs only where configService.get('NODE_ENV') !== 'production'); where it runs: Fastify does not boot: SwaggerModule.setup serves its UI through @fastify/static",
    });
    const { condition: _, ...unconditional } = swagger;
    expect(judgedByAnswers(unconditional, booted).onFastify).toMatch(/did not run this line \(main never reached it\)/);
    expect(judgedByAnswers(swagger, { ...booted, bootFailure: { adapter: 'fastify' } })).toEqual(swagger);
  });

  it('says a CORS origin read from a value breaks where Fastify refused every request for it, and is information where not', () => {
    const origin = {
      ...finding('app.enableCors() origin from a value'),
      onFastify: 'where the origin’s value is empty, @fastify/cors throws “Invalid CORS origin option”',
    };
    const refused = { ...answer(), status: 500, error: 'Error: Invalid CORS origin option' };
    const seen = judgedByAnswers(
      origin,
      record([route('GET /api', answer(), refused), route('GET /b', answer(), answer())]),
    );
    expect(seen).toMatchObject({
      kind: 'breaks',
      onFastify: expect.stringMatching(/seen in this run, on 1 of 2 routes \(GET \/api\)$/),
    });
    const set = judgedByAnswers(origin, record([route('GET /api', answer(), answer())]));
    expect(set).toMatchObject({
      kind: 'works',
      onFastify: expect.stringMatching(/^the origin had a value in this run/),
    });
  });
});
