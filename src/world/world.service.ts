import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { WORLD_ROW_COUNT } from './world-data.js';
import { World } from './world.entity.js';

@Injectable()
export class WorldService {
  constructor(@InjectRepository(World) private readonly worldRepository: Repository<World>) {}

  /** `count` single-row lookups by random id, concurrent as TechEmpower's Node entries run them. */
  findRandom(count: number): Promise<World[]> {
    return Promise.all(
      Array.from({ length: count }, () =>
        this.worldRepository.findOneByOrFail({ id: 1 + Math.floor(Math.random() * WORLD_ROW_COUNT) }),
      ),
    );
  }
}
