import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanApp } from '../../../../bench/own-app/scan/scan.js';

/**
 * Each of platform-express's interceptors, a fileFilter in a module and one that tests a list declared beside it,
 * validators in handlers: with a literal, a constant and a RegExp(…).
 */
const CONTROLLER = `import {
  Controller,
  FileTypeValidator,
  ParseFilePipe,
  ParseFilePipeBuilder,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  AnyFilesInterceptor,
  FileFieldsInterceptor,
  FileInterceptor,
  FilesInterceptor,
  MulterModule,
  NoFilesInterceptor,
} from '@nestjs/platform-express';

const FIELD = 'file';

export const uploads = MulterModule.register({
  fileFilter: (request, file, callback) => {
    if (!file.originalname.match(/\\.(jpg|jpeg|png|gif)$/i)) return callback(new Error('cantUploadFileType'), false);
    callback(null, true);
  },
});

const validMimeTypes: string[] = ['image/png', 'image/jpeg'];
const allowedFileTypes = /(jpg|png|webp)/;

export const checked = {
  fileFilter: (request, file, callback) => {
    validMimeTypes.includes(file.mimetype) ? callback(null, true) : callback(null, false);
  },
};

@Controller('media')
export class MediaController {
  @Post('one')
  @UseInterceptors(FileInterceptor('avatar'))
  one() {}

  @Post('many')
  @UseInterceptors(FilesInterceptor('photos', 5))
  many() {}

  @Post('fields')
  @UseInterceptors(FileFieldsInterceptor([{ name: 'avatar', maxCount: 1 }, { name: 'background' }]))
  fields() {}

  @Post('any')
  @UseInterceptors(AnyFilesInterceptor())
  any() {}

  @Post('form')
  @UseInterceptors(NoFilesInterceptor())
  form() {}

  @Post('named')
  @UseInterceptors(FileInterceptor(FIELD))
  named() {}

  @Post('pdf')
  @UseInterceptors(FileInterceptor('document'))
  pdf(@UploadedFile(new ParseFilePipe({ validators: [new FileTypeValidator({ fileType: 'application/pdf' })] })) file) {}

  @Post('named-type')
  @UseInterceptors(FileInterceptor('photo'))
  namedType(@UploadedFile(new ParseFilePipe({ validators: [new FileTypeValidator({ fileType: allowedFileTypes })] })) file) {}

  @Post('built')
  @UseInterceptors(FileInterceptor('photo'))
  built(@UploadedFile(new ParseFilePipeBuilder().addFileTypeValidator({ fileType: RegExp(/\\/(jpg|jpeg|png)$/) }).build()) file) {}
}
`;

describe('scanApp on file uploads', () => {
  let dir: string;
  let scan: Awaited<ReturnType<typeof scanApp>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scan-uploads-'));
    writeFileSync(join(dir, 'media.controller.ts'), CONTROLLER);
    scan = await scanApp({ moduleFile: join(dir, 'media.controller.ts'), setupFile: null, appDir: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const filesOf = (handler: string) =>
    scan.findings.find((f) => f.handler === `MediaController.${handler}` && f.rule.includes('Interceptor('))?.files;

  it('reads the fields each interceptor takes files from, and how many', () => {
    expect(filesOf('one')).toEqual([{ field: 'avatar', count: 1 }]);
    expect(filesOf('many')).toEqual([{ field: 'photos', count: 2 }]);
    expect(filesOf('fields')).toEqual([
      { field: 'avatar', count: 1 },
      { field: 'background', count: 1 },
    ]);
    expect(filesOf('any')).toEqual([{ field: 'file', count: 1 }]);
    expect(filesOf('form')).toEqual([]);
  });

  it('leaves the fields out where they are not written as literals', () => {
    expect(filesOf('named')).toBeUndefined();
  });

  it('keeps what a fileFilter and a FileTypeValidator test, with the handler each sits in', () => {
    expect(scan.fileTypes).toEqual([
      { pattern: '/\\.(jpg|jpeg|png|gif)$/i', regex: true, handler: null },
      { pattern: 'image/png', regex: false, handler: null },
      { pattern: 'image/jpeg', regex: false, handler: null },
      { pattern: '/application/pdf/', regex: true, handler: 'MediaController.pdf' },
      { pattern: '/(jpg|png|webp)/', regex: true, handler: 'MediaController.namedType' },
      { pattern: '/\\/(jpg|jpeg|png)$/', regex: true, handler: 'MediaController.built' },
    ]);
  });
});
