import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { configure } from './setup.js';

const app = await NestFactory.create(AppModule);
configure(app);
await app.listen(Number(process.env.PORT ?? 3000));
