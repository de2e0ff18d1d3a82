import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanApp } from '../../../../bench/own-app/scan/scan.js';

/** An Apollo module as thngph-nest-graphql writes it, a guard and a resolver reading the reply from the context. */
const GRAPHQL_MODULE = `import { ApolloDriver } from '@nestjs/apollo';
import { GraphQLModule } from '@nestjs/graphql';

export const CustomGraphQLModule = GraphQLModule.forRoot({
  autoSchemaFile: true,
  driver: ApolloDriver,
  context: ({ req, res }) => ({ req, res }),
});
`;
const ASYNC_MODULE = `import { GraphQLModule } from '@nestjs/graphql';
export const Gql = GraphQLModule.forRootAsync({
  useFactory: () => ({ driver: MercuriusDriver, context: ({ req, reply: res }) => ({ req, res }) }),
});
`;
const RIGHT_MODULE = `import { GraphQLModule } from '@nestjs/graphql';
export const Gql = GraphQLModule.forRoot({
  driver: ApolloDriver,
  context: (arg, reply) => (reply ? { req: arg, res: reply } : { req: arg.req, res: arg.res }),
});
`;
const READS = `import { GqlExecutionContext, Context, Mutation } from '@nestjs/graphql';

export class CookieGuard {
  canActivate(context) {
    const ctx = GqlExecutionContext.create(context);
    ctx.getContext().res.cookie('seen', '1');
    const { req, res } = GqlExecutionContext.create(context).getContext();
    return Boolean(req && res);
  }
}

export class AuthResolver {
  @Mutation(() => Boolean)
  logout(@Context('res') res) {
    return true;
  }

  @Mutation(() => Boolean)
  who(@Context('req') req) {
    return Boolean(req.user);
  }

  @Mutation(() => Boolean)
  signOut(@Context() ctx, @Context() other) {
    ctx.res.clearCookie('sid');
    const { reply } = other;
    return Boolean(ctx.req && reply);
  }
}
`;

describe('the GraphQL context on Fastify', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-graphql-context-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const findingsOf = async (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const { findings } = await scanApp({ moduleFile: join(dir, Object.keys(files)[0]), setupFile: null, appDir: dir });
    return findings.filter((f) => /context|Context/.test(f.rule)).map((f) => `${f.kind} ${f.rule} ${f.file}:${f.line}`);
  };

  it('names a context destructuring { req, res } at its line: Fastify calls it with (request, reply)', async () => {
    expect(await findingsOf({ 'graphql.module.ts': GRAPHQL_MODULE })).toEqual([
      'differs GraphQL context ({ req, res }) graphql.module.ts:7',
    ]);
  });

  it('finds it in forRootAsync’s factory, the reply renamed', async () => {
    expect(await findingsOf({ 'gql.module.ts': ASYNC_MODULE })).toEqual([
      'differs GraphQL context ({ req, res }) gql.module.ts:3',
    ]);
  });

  it('leaves a context that takes both shapes alone', async () => {
    expect(await findingsOf({ 'gql.module.ts': RIGHT_MODULE })).toEqual([]);
  });

  it('names each read of the reply from the context as a break: getContext().res, its destructuring, @Context(‘res’), a whole @Context()’s reply', async () => {
    expect(await findingsOf({ 'auth.ts': READS })).toEqual([
      'breaks getContext().res auth.ts:6',
      'breaks getContext() { res } auth.ts:7',
      "breaks @Context('res') auth.ts:14",
      'breaks @Context() ctx.res auth.ts:25',
      'breaks @Context() { res } auth.ts:26',
    ]);
  });
});
