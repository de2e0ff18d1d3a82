import { Injectable, NotFoundException } from '@nestjs/common';

export interface User {
  id: number;
  name: string;
  email: string;
  teams: string[];
}

const USERS: User[] = Array.from({ length: 50 }, (_, i) => ({
  id: i + 1,
  name: `user ${i + 1}`,
  email: `user${i + 1}@example.com`,
  teams: [`team-${(i % 5) + 1}`],
}));

@Injectable()
export class UsersService {
  list(limit: number): User[] {
    return USERS.slice(0, limit);
  }

  one(id: number): User {
    const user = USERS.find((candidate) => candidate.id === id);
    if (!user) throw new NotFoundException(`no user ${id}`);
    return user;
  }

  create(name: string): User {
    return { id: USERS.length + 1, name, email: `${name}@example.com`, teams: [] };
  }
}
