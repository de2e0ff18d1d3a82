import type { LogLevel } from '@nestjs/common';
import { StartupError } from './startup-error.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3000;
const MAX_PORT = 65_535;

/** From the most to the least verbose; LOG_LEVEL=warn keeps warn, error and fatal. */
const LOG_LEVELS: LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/** Off unless LOG_LEVEL is set: the benchmark measures request handling, not logging. */
export function logLevelsFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel[] | false {
  const level = env.LOG_LEVEL;
  if (!level) return false;
  const index = LOG_LEVELS.indexOf(level as LogLevel);
  if (index < 0) throw new StartupError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  return LOG_LEVELS.slice(index);
}

export function listenAddressFromEnv(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const host = env.HOST || DEFAULT_HOST;
  const port = env.PORT ? Number(env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > MAX_PORT) {
    throw new StartupError(`PORT must be an integer from 0 to ${MAX_PORT} (got "${env.PORT}")`);
  }
  return { host, port };
}
