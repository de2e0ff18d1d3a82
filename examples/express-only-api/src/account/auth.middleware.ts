import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** Who is asking, from a header a gateway in front of the API sets. */
@Injectable()
export class AuthMiddleware implements NestMiddleware {
  use(req: Request & { user?: { name: string } }, _res: Response, next: NextFunction) {
    const name = req.headers['x-user'];
    req.user = { name: typeof name === 'string' ? name : 'guest' };
    next();
  }
}
