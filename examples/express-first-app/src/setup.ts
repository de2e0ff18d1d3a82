import type { INestApplication } from '@nestjs/common';

/** What main.ts does to the app before it listens; the bench calls it too, on both adapters. */
export function configure(app: INestApplication) {
  app.setGlobalPrefix('api', { exclude: ['health'] });
  app.enableCors();
}
