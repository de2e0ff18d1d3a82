import { Body, Controller, Get, Param, ParseIntPipe, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { NotesService } from './notes.service.js';

@Controller('notes')
export class NotesController {
  constructor(private readonly notesService: NotesService) {}

  @Get()
  list() {
    return this.notesService.list();
  }

  @Post()
  create(@Body('title') title: string) {
    return this.notesService.create(title);
  }

  @Get('latest')
  latest(@Res() res: Response) {
    res.redirect(302, '/notes/2');
  }

  @Get(':id/card')
  card(@Param('id', ParseIntPipe) id: number, @Res() res: Response) {
    const { title } = this.notesService.one(id);
    res.status(200).json({ title });
  }
}
