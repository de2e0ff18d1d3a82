import type { INestApplication } from '@nestjs/common';
import cookieParser from 'cookie-parser';

/** What main.ts does to the app before it listens; the bench calls it too, on both adapters. */
export function configure(app: INestApplication) {
  app.use(cookieParser());
}
