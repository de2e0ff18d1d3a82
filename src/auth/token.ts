import { JwtService } from '@nestjs/jwt';
import { DEFAULT_TOKEN_TTL_SECONDS, JWT_ALGORITHM } from './jwt.constants.js';

/** The subject of every minted token: the bench and curl users are one anonymous client. */
const TOKEN_SUBJECT = 'bench';

/**
 * Mints a bearer token that GET /secure/products accepts when the server runs
 * with the same JWT_SECRET. Compiled to dist/auth/token.js for the bench.
 */
export function signToken(secret: string, ttlSeconds = DEFAULT_TOKEN_TTL_SECONDS): string {
  if (!secret) throw new TypeError('signToken: secret must be a non-empty string');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`signToken: ttlSeconds must be a positive integer (got ${ttlSeconds})`);
  }
  return new JwtService({ secret }).sign({ sub: TOKEN_SUBJECT }, { algorithm: JWT_ALGORITHM, expiresIn: ttlSeconds });
}
