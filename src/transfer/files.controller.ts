import { Controller, Get, NotFoundException, Param, StreamableFile } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { filesDirFromEnv } from './files.js';

const FILE_NAME = /^[\w-]+(\.[\w-]+)*$/;

@Controller('files')
export class FilesController {
  private readonly dir = filesDirFromEnv();

  /** A file of FILES_DIR streamed through Nest's StreamableFile (not the static handler). */
  @Get(':name')
  async stream(@Param('name') name: string): Promise<StreamableFile> {
    const path = join(this.dir, name);
    const found = FILE_NAME.test(name) ? await stat(path).catch(() => null) : null;
    if (!found?.isFile()) throw new NotFoundException(`no file ${JSON.stringify(name)}`);
    return new StreamableFile(createReadStream(path), { type: 'application/octet-stream', length: found.size });
  }
}
