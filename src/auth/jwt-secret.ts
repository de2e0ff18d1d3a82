import { StartupError } from '../common/startup-error.js';

/** Used only outside production when JWT_SECRET is unset; the start-up output says so. */
export const DEVELOPMENT_JWT_SECRET = 'nest-adapter-bench-development-secret';

export interface JwtSecret {
  secret: string;
  isDevelopmentDefault: boolean;
}

export function resolveJwtSecret(env: NodeJS.ProcessEnv = process.env): JwtSecret {
  if (env.JWT_SECRET) return { secret: env.JWT_SECRET, isDevelopmentDefault: false };
  if (env.NODE_ENV === 'production') {
    throw new StartupError(
      'JWT_SECRET is not set; NODE_ENV=production refuses the development default, so set JWT_SECRET',
    );
  }
  return { secret: DEVELOPMENT_JWT_SECRET, isDevelopmentDefault: true };
}
