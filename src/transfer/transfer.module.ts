import { Module, type DynamicModule } from '@nestjs/common';
import { BodiesController } from './bodies.controller.js';
import { EventsController } from './events.controller.js';
import { FilesController } from './files.controller.js';
import { ExpressUploadsController } from './uploads.express.controller.js';
import { FastifyUploadsController } from './uploads.fastify.controller.js';

/** Bodies, uploads, files and streams: the same routes on both adapters, uploads through each one's own handler. */
@Module({})
export class TransferModule {
  static forAdapter(adapter: 'express' | 'fastify'): DynamicModule {
    const uploads = adapter === 'fastify' ? FastifyUploadsController : ExpressUploadsController;
    return { module: TransferModule, controllers: [BodiesController, uploads, FilesController, EventsController] };
  }
}
