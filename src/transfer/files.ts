import { resolve } from 'node:path';

/** Where the static files and the streamed files are read from: FILES_DIR, else public/ in the working directory. */
export function filesDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.FILES_DIR || 'public');
}

/** Static files answer under this prefix, through express.static or @fastify/static. */
export const STATIC_PREFIX = '/static/';
