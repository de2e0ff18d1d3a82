import { NOTHING_INSTALLED } from '../../../../bench/own-app/launch/app-packages.js';
import { routeFastifyRefuses, swaggerStatic, trustProxy } from '../../../../bench/own-app/scan/app-differences.js';
import { bootFailure } from '../../../../bench/own-app/launch/boot-failure.js';
import type { CodeFinding } from '../../../../bench/own-app/scan/scan.js';

/** The launcher's last stderr line when Fastify's router refused a route while Nest registered it. */
const WILDCARD = {
  adapter: 'fastify',
  error: 'nest-fastify: Error: Wildcard must be the last character in the route (app.init())',
};

const refusedRoute: CodeFinding = {
  rule: "@All('*path')",
  ...(routeFastifyRefuses('*path') as NonNullable<ReturnType<typeof routeFastifyRefuses>>),
  file: 'src/proxy/proxy.controller.ts',
  line: 12,
  code: "@All('*path')",
  handler: 'ProxyController.forward',
};

describe('bootFailure', () => {
  it('names the controller line of the route Fastify’s router refused, which its error does not', () => {
    expect(bootFailure(WILDCARD, 'node@20.20.2', { findings: [refusedRoute] })).toEqual({
      adapter: 'fastify',
      runtime: 'node@20.20.2',
      error: 'Error: Wildcard must be the last character in the route',
      step: 'app.init()',
      at: 'src/proxy/proxy.controller.ts:12',
      fix: "@All('*path') in ProxyController.forward: a plain '*' at the path’s end (*), read as request.params['*']",
    });
  });

  it('with --nest-main --strict, stops at main.ts’s line with the scan’s fix there and says what leaving out --strict does', () => {
    const setting: CodeFinding = {
      rule: "app.set('trust proxy')",
      ...trustProxy('set', '1'),
      file: 'src/main.ts',
      line: 11,
      code: "app.set('trust proxy', 1);",
      handler: null,
    };
    const strict = {
      adapter: 'fastify',
      error: 'nest-fastify: TypeError: app.set is not a function (app.set in main at /srv/shop/src/main.ts:11:7)',
    };
    expect(bootFailure(strict, 'node@20.20.2', { findings: [setting] })).toEqual({
      adapter: 'fastify',
      runtime: 'node@20.20.2',
      error: 'TypeError: app.set is not a function',
      step: 'app.set in main',
      at: '/srv/shop/src/main.ts:11:7',
      fix: 'new FastifyAdapter({ trustProxy: 1 }); without --strict the bench skips this call on Fastify and measures the rest',
    });
  });

  it('keeps the router’s general advice where the scan found no such route', () => {
    const failure = bootFailure(WILDCARD, 'node@20.20.2', { findings: [] });
    expect(failure.at).toBeNull();
    expect(failure.fix).toMatch(/wildcard only at a path's end/);
  });

  it('names the package to install when a plugin is missing', () => {
    const failure = bootFailure(
      {
        adapter: 'fastify',
        error:
          'nest-fastify: Error: The "@fastify/static" package is missing. Please, make sure to install it to take advantage of SwaggerModule.setup(). (configure(app) at /srv/app/src/setup.ts:12:7)',
      },
      'node@20.20.2',
    );
    expect(failure).toMatchObject({ step: 'configure(app)', at: '/srv/app/src/setup.ts:12:7' });
    expect(failure.fix).toBe("install it in the app's folder: npm i @fastify/static");
  });

  it('names the setup module’s SwaggerModule.setup as the call that needs @fastify/static, which Nest’s error does not', () => {
    const swagger = swaggerStatic({ ...NOTHING_INSTALLED, fastify: '4.28.1' });
    const call = (file: string, line: number): CodeFinding => ({
      rule: 'SwaggerModule.setup()',
      ...(swagger as NonNullable<typeof swagger>),
      file,
      line,
      code: "SwaggerModule.setup('swagger', app, document);",
      handler: null,
    });
    const failure = bootFailure(
      {
        adapter: 'fastify',
        error:
          'nest-fastify exited (exit code 1) before answering on port 5401: The "@fastify/static" package is missing. Please, make sure to install it to take advantage of FastifyAdapter.useStaticAssets().',
      },
      'node@20.20.2',
      { findings: [call('src/main.ts', 27), call('/srv/bench/setup.cjs', 15)] },
    );
    expect(failure.at).toBe('/srv/bench/setup.cjs:15');
    expect(failure.fix).toBe(
      'SwaggerModule.setup() at /srv/bench/setup.cjs:15 needs it: npm i @fastify/static@7 (or SwaggerModule.setup(path, app, document, { swaggerUiEnabled: false }))',
    );
  });

  it('says which path two handlers share when Fastify refuses a duplicate route, where Express answers the first', () => {
    const failure = bootFailure(
      {
        adapter: 'fastify',
        error:
          "nest-fastify exited (exit code 1) before answering on port 5401: FastifyError: Method 'GET' already declared for route '/api' (app.listen())",
      },
      'node@20.20.2',
      { findings: [] },
    );
    expect(failure).toMatchObject({
      adapter: 'fastify',
      error: "FastifyError: Method 'GET' already declared for route '/api'",
      step: 'app.listen()',
    });
    expect(failure.fix).toMatch(/^two handlers answer GET \/api \(a controller's route and SwaggerModule\.setup\(\)/);
    expect(failure.fix).not.toMatch(/Express-only/);
  });
});

describe('bootFailure on a plugin made for another Fastify', () => {
  it('names both Fastify versions and the override where a package pins the plugin (Nest 9, Apollo Server 3)', () => {
    const failure = bootFailure(
      {
        adapter: 'fastify',
        error:
          "nest-fastify: FastifyError: fastify-plugin: @fastify/accepts - expected '3.x' fastify version, '4.18.0' is installed (app.init())",
      },
      'node@20.20.2',
    );
    expect(failure).toMatchObject({ adapter: 'fastify', step: 'app.init()' });
    expect(failure.fix).toMatch(/^@fastify\/accepts is made for Fastify 3\.x and the app's Fastify is 4\.18\.0: /);
    expect(failure.fix).toMatch(/apollo-server-fastify 3 pins .*"overrides"/);
  });
});
