import { NestFactory } from '@nestjs/core';
import { AppModule, listen } from './app.module.js';

await listen(await NestFactory.create(AppModule, { logger: false }));
