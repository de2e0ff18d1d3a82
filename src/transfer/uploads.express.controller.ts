/// <reference types="multer" />
import { Controller, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { UPLOAD_FIELD, UPLOAD_LIMIT_BYTES, describeUpload, type ReceivedFile } from './uploads.js';

/** Express's idiomatic upload: multer through FileInterceptor, in memory (its default storage). */
@Controller('uploads')
export class ExpressUploadsController {
  @Post()
  @HttpCode(200)
  @UseInterceptors(FileInterceptor(UPLOAD_FIELD, { limits: { fileSize: UPLOAD_LIMIT_BYTES } }))
  receive(@UploadedFile() file: Express.Multer.File | undefined): ReceivedFile {
    return describeUpload(file && { filename: file.originalname, content: file.buffer });
  }
}
