import { StartupError } from '../common/startup-error.js';
import { resolveJwtSecret } from './jwt-secret.js';
import { DEFAULT_TOKEN_TTL_SECONDS } from './jwt.constants.js';
import { signToken } from './token.js';

/**
 * `npm run token [-- TTL_SECONDS]`: prints a bearer token for the current
 * JWT_SECRET on stdout, alone, so that TOKEN=$(npm run -s token) works.
 */
const USAGE = 'usage: npm run token [-- TTL_SECONDS]';
const [ttlArg, ...extra] = process.argv.slice(2);
const ttlSeconds = ttlArg === undefined ? DEFAULT_TOKEN_TTL_SECONDS : Number(ttlArg);
if (extra.length > 0 || !Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
  console.error(`TTL_SECONDS must be one positive integer (got ${process.argv.slice(2).join(' ')}); ${USAGE}`);
  process.exit(2);
}
try {
  const { secret, isDevelopmentDefault } = resolveJwtSecret();
  if (isDevelopmentDefault) console.error('JWT_SECRET is not set: this token is for the development default secret');
  console.log(signToken(secret, ttlSeconds));
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(2);
}
