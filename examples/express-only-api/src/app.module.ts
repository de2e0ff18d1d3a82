import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { AccountController } from './account/account.controller.js';
import { AuthMiddleware } from './account/auth.middleware.js';
import { FilesController } from './files/files.controller.js';
import { NotesController } from './notes/notes.controller.js';
import { NotesService } from './notes/notes.service.js';

@Module({
  controllers: [NotesController, AccountController, FilesController],
  providers: [NotesService],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(AuthMiddleware).forRoutes('*');
  }
}
