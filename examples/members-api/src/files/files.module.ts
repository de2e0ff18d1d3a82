import {
  Controller,
  Injectable,
  Module,
  OnModuleInit,
  Post,
  UnprocessableEntityException,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Repository } from 'typeorm';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { FileEntity } from './file.entity';

const MAX_FILE_SIZE = 5 * 1024 * 1024;

/** Local storage: files land in FILE_UPLOAD_DIR, relative to where the app runs. */
@Injectable()
export class FilesService implements OnModuleInit {
  constructor(
    @InjectRepository(FileEntity) private readonly files: Repository<FileEntity>,
    private readonly config: ConfigService,
  ) {}

  private get dir() {
    return this.config.getOrThrow<string>('FILE_UPLOAD_DIR');
  }

  async onModuleInit() {
    await mkdir(this.dir, { recursive: true });
  }

  async store(file: Express.Multer.File): Promise<FileEntity> {
    const path = join(this.dir, `${randomUUID()}${extname(file.originalname)}`);
    await writeFile(path, file.buffer);
    return this.files.save(this.files.create({ path, mimeType: file.mimetype, size: file.size }));
  }
}

@ApiTags('Files')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiCreatedResponse({ type: FileEntity })
  @Post('upload')
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_FILE_SIZE } }))
  async upload(@UploadedFile() file: Express.Multer.File | undefined) {
    if (!file) throw new UnprocessableEntityException({ errors: { file: 'selectFile' } });
    return { file: await this.files.store(file) };
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([FileEntity])],
  controllers: [FilesController],
  providers: [FilesService],
})
export class FilesModule {}
