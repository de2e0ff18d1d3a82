import { Injectable, NotFoundException } from '@nestjs/common';

export interface Note {
  id: number;
  title: string;
}

@Injectable()
export class NotesService {
  private readonly notes: Note[] = [
    { id: 1, title: 'first' },
    { id: 2, title: 'second' },
  ];

  list(): Note[] {
    return this.notes.slice(0, 20);
  }

  one(id: number): Note {
    const note = this.notes.find((candidate) => candidate.id === id);
    if (!note) throw new NotFoundException(`no note ${id}`);
    return note;
  }

  create(title: string): Note {
    return { id: this.notes.length + 1, title };
  }
}
