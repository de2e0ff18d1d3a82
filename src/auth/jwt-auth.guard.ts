import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { JwtService, TokenExpiredError } from '@nestjs/jwt';

/** The scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^Bearer ([^\s]+)$/i;

/** Accepts `Authorization: Bearer <jwt>` signed HS256 with JWT_SECRET and carrying an unexpired `exp`. */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(private readonly jwtService: JwtService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    const header = request.headers.authorization;
    if (!header) throw new UnauthorizedException('Missing bearer token');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new UnauthorizedException('Authorization header must be "Bearer <token>"');
    let payload: { exp?: unknown };
    try {
      payload = this.jwtService.verify(token);
    } catch (error) {
      if (error instanceof TokenExpiredError) throw new UnauthorizedException('Token expired');
      throw new UnauthorizedException(`Invalid token: ${(error as Error).message}`);
    }
    if (typeof payload.exp !== 'number') throw new UnauthorizedException('Invalid token: no expiry (exp)');
    // No request.user = payload: no route reads the claims, and a property added to every request costs on the hot path
    return true;
  }
}
