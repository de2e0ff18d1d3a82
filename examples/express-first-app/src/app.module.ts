import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { UsersController } from './users/users.controller.js';
import { UsersService } from './users/users.service.js';

@Module({
  controllers: [UsersController, HealthController],
  providers: [UsersService],
})
export class AppModule {}
