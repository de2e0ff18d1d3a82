import { StartupError } from '../common/startup-error.js';

export const STACK_NAMES = ['bare', 'production'] as const;
export type StackName = (typeof STACK_NAMES)[number];

/** What the production stack adds around every route; APP_STACK_OMIT names any of them to leave out. */
export const STACK_PARTS = ['helmet', 'cors', 'compression', 'logger', 'request-id', 'serializer'] as const;
export type StackPart = (typeof STACK_PARTS)[number];

export const DEFAULT_REQUEST_LOG_FILE = 'logs/requests.log';
/** The longest a stop may take: after it, the process exits whatever is still open. */
export const MAX_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface AppSettings {
  stack: StackName;
  /** The production stack's parts in use: none on the bare stack. */
  parts: ReadonlySet<StackPart>;
  requestLogFile: string;
  shutdownTimeoutMs: number;
  /** Bodies, uploads, static files and streams (src/transfer/): only where a run asks for them, see appSettingsFromEnv. */
  transfer: boolean;
}

/** The Nest provider that hands the settings to the modules that need them. */
export const APP_SETTINGS = Symbol('APP_SETTINGS');

/**
 * APP_STACK=bare|production (unset: bare), APP_STACK_OMIT=<comma list of
 * parts>, REQUEST_LOG_FILE=<path>, SHUTDOWN_TIMEOUT_MS=<1..10000>, APP_TRANSFER=1|0.
 * APP_TRANSFER is off by default: @fastify/multipart hooks every request on Fastify and express.static is one more
 * layer on Express, which an app made by `nest new` has neither of.
 */
export function appSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): AppSettings {
  const stack = (env.APP_STACK || 'bare') as StackName;
  if (!STACK_NAMES.includes(stack)) {
    throw new StartupError(`APP_STACK must be one of ${STACK_NAMES.join(', ')} (got "${env.APP_STACK}")`);
  }
  const omitted = (env.APP_STACK_OMIT ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = omitted.filter((part) => !STACK_PARTS.includes(part as StackPart));
  if (unknown.length > 0) {
    throw new StartupError(
      `APP_STACK_OMIT takes a comma list of ${STACK_PARTS.join(', ')} (got unknown "${unknown.join('", "')}")`,
    );
  }
  const parts = stack === 'production' ? STACK_PARTS.filter((part) => !omitted.includes(part)) : [];
  return {
    stack,
    parts: new Set(parts),
    requestLogFile: env.REQUEST_LOG_FILE || DEFAULT_REQUEST_LOG_FILE,
    shutdownTimeoutMs: shutdownTimeoutFromEnv(env),
    transfer: transferFromEnv(env),
  };
}

function transferFromEnv(env: NodeJS.ProcessEnv): boolean {
  if (env.APP_TRANSFER && env.APP_TRANSFER !== '1' && env.APP_TRANSFER !== '0') {
    throw new StartupError(`APP_TRANSFER must be 1, 0 or unset (got "${env.APP_TRANSFER}")`);
  }
  return env.APP_TRANSFER === '1';
}

function shutdownTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  if (!env.SHUTDOWN_TIMEOUT_MS) return MAX_SHUTDOWN_TIMEOUT_MS;
  const timeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_SHUTDOWN_TIMEOUT_MS) {
    throw new StartupError(
      `SHUTDOWN_TIMEOUT_MS must be an integer from 1 to ${MAX_SHUTDOWN_TIMEOUT_MS} (got "${env.SHUTDOWN_TIMEOUT_MS}")`,
    );
  }
  return timeoutMs;
}
