import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';

interface Upload {
  originalname: string;
  size: number;
}

@Controller('files')
export class FilesController {
  @Post()
  @UseInterceptors(FileInterceptor('document'))
  upload(@UploadedFile() file: Upload | undefined) {
    return { name: file?.originalname ?? null, bytes: file?.size ?? 0 };
  }
}
