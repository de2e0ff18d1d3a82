import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NotesModule } from './notes.module.js';
import { configure } from './setup.js';

const app = await NestFactory.create(NotesModule);
configure(app);
await app.listen(Number(process.env.PORT ?? 3000));
