import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';

/** An export reads every account: each client gets this many a minute, the app's own rate limit. */
const EXPORTS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

@Injectable()
export class ExportLimitGuard implements CanActivate {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  canActivate(context: ExecutionContext): boolean {
    const client = context.switchToHttp().getRequest<{ ip?: string }>().ip ?? 'unknown';
    const now = Date.now();
    const window = this.windows.get(client);
    if (!window || now - window.startedAt >= WINDOW_MS) this.windows.set(client, { startedAt: now, count: 1 });
    else if (++window.count > EXPORTS_PER_MINUTE)
      throw new HttpException('Too many exports: try again in a minute', HttpStatus.TOO_MANY_REQUESTS);
    return true;
  }
}
