import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
it('hello', async () => {
  const m = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = m.createNestApplication(); await app.init();
  await request(app.getHttpServer()).get('/').expect(200).expect('Hello World!');
  await app.close();
});
