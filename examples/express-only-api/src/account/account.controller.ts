import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

@Controller('account')
export class AccountController {
  @Get('me')
  me(@Req() req: Request & { user?: { name: string } }) {
    return { user: req.user ?? null };
  }

  @Get('preferences')
  preferences(@Req() req: Request) {
    return { theme: req.cookies?.theme ?? 'light' };
  }

  @Post('login')
  login(@Body('name') name: string, @Res({ passthrough: true }) res: Response) {
    res.cookie('session', `s-${name}`, { httpOnly: true });
    return { name };
  }

  @Get('client')
  client(@Req() req: Request) {
    return { agent: req.get('user-agent') ?? null };
  }
}
