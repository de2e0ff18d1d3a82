// What nest-adapter-bench needs beside the compiled AppModule (docs/own-app.md): configure(app) does what main.ts does
// before listen, on both adapters; authenticate(client) signs in and returns what every request sends.
import { INestApplication, ValidationPipe, VersioningType } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import helmet from 'helmet';
import morgan from 'morgan';

/** The fix the bench's trailing-slash probe suggests, tried on Fastify's adapter: Express ignores a trailing slash. */
export const adapterOptions = { fastify: { routerOptions: { ignoreTrailingSlash: true } } };

export function configure(app: INestApplication) {
  const config = app.get(ConfigService);
  app.enableShutdownHooks();
  app.setGlobalPrefix(config.getOrThrow('API_PREFIX'));
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
  app.use(helmet());
  app.use(compression());
  app.use(morgan('combined'));
  app.enableCors({ origin: config.getOrThrow('FRONTEND_ORIGIN') });
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().addBearerAuth().build());
  SwaggerModule.setup('docs', app, document);
}

/** The client the bench hands authenticate(): one request at a time to the app on one adapter. */
interface AppClient {
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Record<string, string>; body: unknown }>;
}

/** The account every run signs in with: registered once, kept across runs. */
export const BENCH_ACCOUNT = {
  email: 'bench@example.com',
  password: 'bench-password',
  firstName: 'Bench',
  lastName: 'Account',
};

export async function authenticate(client: AppClient) {
  const registered = await client.request('POST', '/api/v1/auth/email/register', BENCH_ACCOUNT);
  // 422: registered by an earlier run or the other adapter
  if (registered.status !== 204 && registered.status !== 422)
    throw new Error(`register answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const { email, password } = BENCH_ACCOUNT;
  const signedIn = await client.request('POST', '/api/v1/auth/email/login', { email, password });
  if (signedIn.status !== 200) throw new Error(`login answered ${signedIn.status}: ${JSON.stringify(signedIn.body)}`);
  const { token, user } = signedIn.body as { token: string; user: { id: string } };
  return { headers: { authorization: `Bearer ${token}` }, params: { id: user.id } };
}
