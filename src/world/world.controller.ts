import { Controller, Get, Query } from '@nestjs/common';
import { QueriesCountPipe } from './queries-count.pipe.js';
import type { World } from './world.entity.js';
import { WorldService } from './world.service.js';

@Controller('queries')
export class WorldController {
  constructor(private readonly worldService: WorldService) {}

  @Get()
  findRandom(@Query('count', QueriesCountPipe) count: number): Promise<World[]> {
    return this.worldService.findRandom(count);
  }
}
