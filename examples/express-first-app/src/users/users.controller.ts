import { Body, Controller, DefaultValuePipe, Get, Param, ParseIntPipe, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { UsersService } from './users.service.js';

@Controller('users')
export class UsersController {
  constructor(private readonly usersService: UsersService) {}

  @Get()
  list(@Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number) {
    return this.usersService.list(limit);
  }

  @Get(':id')
  one(@Param('id', ParseIntPipe) id: number) {
    return this.usersService.one(id);
  }

  // Written against Express: on Fastify @Res() is a FastifyReply, which has no json()
  @Get(':id/card')
  card(@Param('id', ParseIntPipe) id: number, @Res() res: Response) {
    const { name, email } = this.usersService.one(id);
    res.json({ name, email });
  }

  @Post()
  create(@Body('name') name: string) {
    return this.usersService.create(name);
  }
}
