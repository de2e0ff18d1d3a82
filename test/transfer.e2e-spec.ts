import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FILES_MTIME, jsonBody, payloadText, writeServedFiles } from '../bench/model/payloads.js';
import type { AdapterName } from '../src/bootstrap.js';
import { ADAPTERS, closeAll, startBoth } from './support/app-matrix.js';

const MIB = 1024 * 1024;
const FILES = { 'small.txt': 4096, 'big.bin': 2 * MIB };
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe.each(ADAPTERS)('bodies, uploads, files and streams on %s', (adapter: AdapterName) => {
  let apps: Record<AdapterName, INestApplication>;
  let dir: string;
  const http = () => request(apps[adapter].getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'transfer-e2e-'));
    await writeServedFiles(dir, FILES);
    apps = await startBoth(undefined, () => ({ FILES_DIR: dir, APP_TRANSFER: '1' }));
  });
  afterAll(async () => {
    await closeAll(apps);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a 1 MiB JSON body with its size and digest', async () => {
    const body = jsonBody(MIB);
    const res = await http().post('/bodies').set('content-type', 'application/json').send(body).expect(200);
    expect(res.body).toEqual({ bytes: MIB, sha256: sha256(body) });
  });

  it('receives a 20 MiB upload whole through its own multipart handler', async () => {
    const content = Buffer.from(payloadText(20 * MIB, 'upload'));
    const res = await http().post('/uploads').attach('file', content, 'upload.bin').expect(200);
    expect(res.body).toEqual({ filename: 'upload.bin', bytes: content.length, sha256: sha256(content) });
  });

  it('refuses a multipart request without the file with a 400', async () => {
    await http().post('/uploads').field('other', 'x').expect(400);
  });

  it('serves a static file, and a 304 to a request naming its date', async () => {
    const res = await http().get('/static/small.txt').expect(200);
    expect(res.text).toBe(payloadText(4096, 'small.txt'));
    expect(res.headers['last-modified']).toBe(FILES_MTIME.toUTCString());
    const again = await http().get('/static/small.txt').set('if-modified-since', FILES_MTIME.toUTCString());
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('streams a file through StreamableFile with its length, and 404s a name outside the directory', async () => {
    const res = await http()
      .get('/files/big.bin')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-length']).toBe(String(2 * MIB));
    expect(sha256(res.body as Buffer)).toBe(sha256(payloadText(2 * MIB, 'big.bin')));
    await http().get('/files/..%2Fpasswd').expect(404);
  });

  it('sends count server-sent events, then ends the stream', async () => {
    const res = await http().get('/events?count=3').buffer(true).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text.trim()).toBe([1, 2, 3].map((i) => `id: ${i}\ndata: {"sequence":${i}}`).join('\n\n'));
  });
});

describe.each(ADAPTERS)('a static file on the production stack on %s', (adapter: AdapterName) => {
  let apps: Record<AdapterName, INestApplication>;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'transfer-e2e-'));
    await writeServedFiles(dir, FILES);
    apps = await startBoth(undefined, (name) => ({
      FILES_DIR: dir,
      APP_TRANSFER: '1',
      APP_STACK: 'production',
      REQUEST_LOG_FILE: join(dir, `${name}.log`),
    }));
  });
  afterAll(async () => {
    await closeAll(apps);
    rmSync(dir, { recursive: true, force: true });
  });

  it('meets the whole stack, as a route does: request id, security headers, CORS, compression', async () => {
    const res = await request(apps[adapter].getHttpServer())
      .get('/static/small.txt')
      .set('accept-encoding', 'gzip')
      .set('origin', 'https://shop.example')
      .expect(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toBe(payloadText(4096, 'small.txt'));
  });
});

describe('the app without APP_TRANSFER, as nest new makes it', () => {
  let apps: Record<AdapterName, INestApplication>;
  beforeAll(async () => {
    apps = await startBoth(undefined);
  });
  afterAll(() => closeAll(apps));

  it.each(ADAPTERS)('has no upload, static file or stream route on %s', async (adapter: AdapterName) => {
    const http = () => request(apps[adapter].getHttpServer());
    await http().post('/uploads').attach('file', Buffer.from('x'), 'x.bin').expect(404);
    await http().get('/static/small.txt').expect(404);
    await http().get('/files/big.bin').expect(404);
    await http().get('/').expect(200);
  });
});
