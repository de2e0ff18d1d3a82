import { createHash } from 'node:crypto';
import {
  Controller,
  FileTypeValidator,
  Module,
  ParseFilePipe,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FileInterceptor } from '@nestjs/platform-express';
import { send } from '../../../../bench/run/verify.js';
import {
  FILE_KINDS,
  fileKind,
  uploadBody,
  uploadedFile,
  uploadDifference,
  graphqlUpload,
  uploadsByHandler,
  type UploadSent,
} from '../../../../bench/own-app/bodies/upload-form.js';
import type { ScanRecord } from '../../../../bench/own-app/scan/scan.js';
import type { AdapterAnswer } from '../../../../bench/own-app/check/compatibility.js';

const regex = (pattern: string, handler: string | null = null) => ({ pattern, regex: true, handler });
const text = (pattern: string, handler: string | null = null) => ({ pattern, regex: false, handler });

/** brocoders/nestjs-boilerplate's upload as the scan reads it: the field, and its module's fileFilter on the name. */
const SCAN: ScanRecord = {
  files: [],
  fromSourceMaps: 0,
  skipped: null,
  findings: [
    {
      rule: "FileInterceptor('file')",
      kind: 'plugin',
      file: 'src/files/files.controller.ts',
      line: 52,
      code: "@UseInterceptors(FileInterceptor('file'))",
      handler: 'FilesLocalController.uploadFile',
      onFastify: '',
      fix: '',
      files: [{ field: 'file', count: 1 }],
    },
  ],
  fileTypes: [regex('/\\.(jpg|jpeg|png|gif)$/i')],
};

const UPLOAD: UploadSent = {
  fields: [{ field: 'file', count: 1 }],
  filename: 'photo.gif',
  type: 'image/gif',
  bytes: 4096,
  interceptor: "FileInterceptor('file')",
  where: 'src/files/files.controller.ts:52',
};

const answer = (status: number | null, extra: Partial<AdapterAnswer> = {}): AdapterAnswer => ({
  status,
  contentType: 'application/json',
  error: null,
  ...extra,
});

describe('fileKind: a file the app’s own checks accept', () => {
  it('sends a GIF where a fileFilter’s pattern on the name allows it', () => {
    expect(fileKind([regex('/\\.(jpg|jpeg|png|gif)$/i')]).extension).toBe('gif');
  });

  it('sends what a pattern names when it names no GIF: a PNG, a PDF for a validator’s type', () => {
    expect(fileKind([regex('/\\.(png)$/')]).extension).toBe('png');
    expect(fileKind([regex('/application\\/pdf/')]).type).toBe('application/pdf');
    expect(fileKind([text('text/csv')]).extension).toBe('csv');
    expect(fileKind([text('.txt')]).extension).toBe('txt');
  });

  it('sends an image where nothing tests the file', () => {
    expect(fileKind([])).toBe(FILE_KINDS[0]);
  });
});

describe('uploadsByHandler', () => {
  it('gives each interceptor’s handler its fields and a file its patterns accept, at the interceptor’s line', () => {
    expect(uploadsByHandler(SCAN).get('FilesLocalController.uploadFile')).toEqual(UPLOAD);
  });

  it('prefers the patterns in the handler itself to the app’s other ones', () => {
    const own = { ...SCAN, fileTypes: [...(SCAN.fileTypes ?? []), regex('/pdf$/', 'FilesLocalController.uploadFile')] };
    expect(uploadsByHandler(own).get('FilesLocalController.uploadFile')?.filename).toBe('document.pdf');
  });

  it('leaves out an interceptor whose fields the scan could not read', () => {
    const unread = { ...SCAN, findings: SCAN.findings.map((finding) => ({ ...finding, files: undefined })) };
    expect(uploadsByHandler(unread).size).toBe(0);
  });
});

describe('uploadBody', () => {
  it('is a multipart form, one character a byte: the body’s fields, nested as multer reads them, then a real file', () => {
    const upload = { ...UPLOAD, fields: [{ field: 'photos', count: 2 }] };
    const { contentType, body } = uploadBody(upload, { title: 'a {{unique}}', role: { id: 4 } });
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const parts = body.split(`--${boundary}`);
    expect(parts.at(-1)).toBe('--\r\n');
    expect(parts[1]).toBe('\r\nContent-Disposition: form-data; name="title"\r\n\r\na {{unique}}\r\n');
    expect(parts[2]).toBe('\r\nContent-Disposition: form-data; name="role[id]"\r\n\r\n4\r\n');
    const files = parts.filter((part) => part.includes('filename='));
    expect(files).toHaveLength(2);
    expect(files[0]).toContain('name="photos"; filename="photo.gif"\r\nContent-Type: image/gif\r\n\r\n');
    const content = Buffer.from(files[0].split('\r\n\r\n').slice(1).join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1');
    expect(content.equals(uploadedFile(upload))).toBe(true);
    expect(content).toHaveLength(4096);
  });
});

// Nest's own FileTypeValidator (Nest 11 and later) reads the file's magic number with file-type: a file that only says
// it is a PNG is refused. Decorators applied by hand, as compiled JavaScript applies them.
class UploadsController {}
const CHECKED = FILE_KINDS.filter((kind) => !kind.type.startsWith('text/'));
for (const kind of CHECKED) {
  const method = (file: { mimetype: string; size: number; buffer: Buffer }) => ({
    type: file.mimetype,
    bytes: file.size,
    sha256: createHash('sha256').update(file.buffer).digest('hex'),
  });
  Object.defineProperty(UploadsController.prototype, kind.extension, { value: method, writable: true });
  const descriptor = Object.getOwnPropertyDescriptor(UploadsController.prototype, kind.extension)!;
  Post(kind.extension)(UploadsController.prototype, kind.extension, descriptor);
  UseInterceptors(FileInterceptor('photo'))(UploadsController.prototype, kind.extension, descriptor);
  UploadedFile(new ParseFilePipe({ validators: [new FileTypeValidator({ fileType: kind.type })] }))(
    UploadsController.prototype,
    kind.extension,
    0,
  );
}
Controller('uploads')(UploadsController);
class UploadsModule {}
Module({ controllers: [UploadsController] })(UploadsModule);

describe('the file sent, at a route whose ParseFilePipe has a FileTypeValidator', () => {
  let app: Awaited<ReturnType<typeof NestFactory.create>>;
  let url: string;

  beforeAll(async () => {
    app = await NestFactory.create(UploadsModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });

  afterAll(() => app.close());

  it.each(CHECKED.map((kind) => [kind.extension, kind] as const))(
    'is taken as the %s it says it is, and arrives byte for byte',
    async (_, kind) => {
      const upload = {
        ...UPLOAD,
        fields: [{ field: 'photo', count: 1 }],
        filename: `${kind.name}.${kind.extension}`,
        type: kind.type,
      };
      const { contentType, body } = uploadBody(upload, { title: 'a {{unique}}' });
      const answer = await send(`${url}/uploads/${kind.extension}`, {
        method: 'POST',
        path: `/uploads/${kind.extension}`,
        headers: { 'content-type': contentType },
        body,
      });
      const file = uploadedFile(upload);
      expect(answer.status, answer.body).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({
        type: kind.type,
        bytes: file.length,
        sha256: createHash('sha256').update(file).digest('hex'),
      });
    },
  );
});

describe('uploadDifference: what Fastify’s answer to the file says', () => {
  it('calls a 415 the missing multipart parser, naming the interceptor’s line and the plugin', () => {
    const stated = uploadDifference(
      { express: answer(201), fastify: answer(415, { refusal: 'Unsupported Media Type' }) },
      UPLOAD,
    );
    expect(stated.kind).toBe('plugin');
    expect(stated.onFastify).toMatch(/^sent photo\.gif \(image\/gif, 4 KiB\) as multipart\/form-data in file: /);
    expect(stated.onFastify).toContain('Express answered 201, Fastify 415 Unsupported Media Type');
    expect(stated.fix).toContain('@fastify/multipart');
    expect(stated.fix).toContain("FileInterceptor('file') at src/files/files.controller.ts:52");
  });

  it('states a 500 as answered, with the error Fastify logged, as a break', () => {
    const stated = uploadDifference(
      { express: answer(201), fastify: answer(500, { error: 'TypeError: req.pipe is not a function' }) },
      UPLOAD,
    );
    expect(stated.kind).toBe('breaks');
    expect(stated.onFastify).toContain('Fastify 500 (TypeError: req.pipe is not a function)');
    expect(stated.onFastify).not.toContain('415');
  });

  it('says where a GraphQL operation’s files went, and gives graphql-upload’s Fastify fix, not multer’s', () => {
    const upload = graphqlUpload(['variables.file', 'variables.files.0'], {
      rule: 'app.use(graphql-upload)',
      where: 'src/main.ts:41',
    });
    const refused = uploadDifference({ express: answer(200), fastify: answer(415) }, upload);
    expect(refused.kind).toBe('plugin');
    expect(refused.onFastify).toMatch(
      /^sent photo\.gif \(image\/gif, 4 KiB\) as a GraphQL multipart request, in \$file, \$files\.0: Express answered 200, Fastify 415/,
    );
    expect(refused.onFastify).toContain('never reached the GraphQL server');
    expect(refused.fix).toContain('processRequest');
    expect(refused.fix).toContain('preValidation');
    expect(refused.fix).not.toContain('FileInterceptor');
    const crashed = uploadDifference(
      { express: answer(200), fastify: answer(null, { error: 'socket hang up' }) },
      upload,
    );
    expect(crashed.kind).toBe('breaks');
    expect(crashed.onFastify).toContain('app.use(graphql-upload) at src/main.ts:41 parses the multipart request');
  });
});
