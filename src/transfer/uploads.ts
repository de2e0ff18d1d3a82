import { BadRequestException } from '@nestjs/common';
import { describeBytes, type Received } from './digest.js';

/** The multipart field an upload arrives in, on both adapters. */
export const UPLOAD_FIELD = 'file';
/** The same limit on both adapters: multer has none by default, @fastify/multipart 1 MiB. */
export const UPLOAD_LIMIT_BYTES = 32 * 1024 * 1024;

export interface ReceivedFile extends Received {
  filename: string;
}

export function describeUpload(file: { filename: string; content: Buffer } | undefined): ReceivedFile {
  if (!file) throw new BadRequestException(`no file in the multipart field "${UPLOAD_FIELD}"`);
  return { filename: file.filename, ...describeBytes(file.content) };
}
