import '@fastify/multipart';
import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { describeUpload, type ReceivedFile } from './uploads.js';

/** Fastify's idiomatic upload: @fastify/multipart (registered in configureApp), read into memory as multer does. */
@Controller('uploads')
export class FastifyUploadsController {
  @Post()
  @HttpCode(200)
  async receive(@Req() request: FastifyRequest): Promise<ReceivedFile> {
    const file = await request.file();
    return describeUpload(file && { filename: file.filename, content: await file.toBuffer() });
  }
}
