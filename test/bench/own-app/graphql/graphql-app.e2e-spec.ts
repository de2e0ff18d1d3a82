import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from '../../support/run-node.js';
import { readResults, type Results } from '../../../../bench/model/results.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'graphql-app');
const RUN_TIMEOUT_MS = 300_000;

async function bench(dir: string, port: string, extra: string[]) {
  const out = join(dir, `out-${port}`);
  const run = await runNode([
    CLI,
    '--nest-app',
    join(FIXTURE, 'app.module.js'),
    '--params',
    'id=3,title=Dune',
    '--quick',
    '--duration',
    '0.5',
    '--runtime',
    'node',
    '--port',
    port,
    '--out',
    out,
    ...extra,
  ]);
  return { run, results: readResults(out) };
}

const row = (results: Results, handler: string) => results.ownApp!.routes.find((r) => r.handler === handler);
const timedOnBoth = (results: Results, scenario: string) =>
  new Set(results.runs.filter((r) => r.scenario === scenario && r.status === 'ok').map((r) => r.target));

describe('--nest-app on a GraphQL app (Apollo on Express and on Fastify)', () => {
  let dir: string;
  let signedIn: Awaited<ReturnType<typeof bench>>;
  let anonymous: Awaited<ReturnType<typeof bench>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-graphql-'));
    signedIn = await bench(dir, '3402', [
      '--nest-setup',
      join(FIXTURE, 'setup.js'),
      '--graphql-queries',
      join(FIXTURE, 'operations.graphql'),
    ]);
    anonymous = await bench(dir, '3405', []);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the endpoint with the routes', () => {
    expect(signedIn.run.status, signedIn.run.stderr).toBe(0);
    expect(row(signedIn.results, 'GraphQL endpoint (ApolloDriver)')).toMatchObject({
      method: 'POST',
      path: '/graphql',
    });
  });

  it('times the file’s query and mutation, variables from --params, on both adapters', () => {
    expect(row(signedIn.results, 'GraphQL query BookTitles')).toMatchObject({ scenario: 'graphql-book-titles' });
    expect(row(signedIn.results, 'GraphQL mutation AddBook')).toMatchObject({ scenario: 'graphql-add-book' });
    for (const scenario of ['graphql-book-titles', 'graphql-add-book'])
      expect(timedOnBoth(signedIn.results, scenario)).toEqual(new Set(['nest-express', 'nest-fastify']));
  });

  it('times the schema’s own queries it can fill, the signed-in one with authenticate()’s headers', () => {
    expect(row(signedIn.results, 'GraphQL query book')).toMatchObject({ scenario: 'graphql-book' });
    expect(timedOnBoth(signedIn.results, 'graphql-me')).toEqual(new Set(['nest-express', 'nest-fastify']));
    // its input object derived from the schema's types
    expect(timedOnBoth(signedIn.results, 'graphql-search')).toEqual(new Set(['nest-express', 'nest-fastify']));
  });

  it('times the schema’s own mutation without a file, its variable from --params', () => {
    expect(row(anonymous.results, 'GraphQL mutation addBook')).toMatchObject({ scenario: 'graphql-add-book' });
    expect(timedOnBoth(anonymous.results, 'graphql-add-book')).toEqual(new Set(['nest-express', 'nest-fastify']));
  });

  it('does not time an operation that answers errors, and says what they said', () => {
    expect(row(anonymous.results, 'GraphQL query me')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringContaining('answers GraphQL errors on both adapters: sign in first'),
    });
    expect(anonymous.results.runs.some((r) => r.scenario === 'graphql-me')).toBe(false);
    expect(timedOnBoth(anonymous.results, 'graphql-books')).toEqual(new Set(['nest-express', 'nest-fastify']));
  });
});
