// @ts-check
// The app's rate limiter while the bench measures it: @nestjs/throttler's guards (any major, the app's own copy,
// subclasses included) found in the booted app's container, and lifted as the bench asks (NEST_APP_THROTTLE). The app
// is not edited: the guard instances Nest made are changed in the bench's server process only.

/** How a server the bench starts treats the app's throttler. */
export const THROTTLE_MODES = /** @type {const} */ ({
  /** as the app has it: its limits refuse the bench's requests with 429 (--keep-throttle) */
  keep: 'keep',
  /** it runs as on every request (its tracker, its storage, its headers) but never refuses: the check's servers */
  count: 'count',
  /** it lets every request through without running: the timed servers */
  lift: 'lift',
});
/** @typedef {typeof THROTTLE_MODES[keyof typeof THROTTLE_MODES]} ThrottleMode */

/** The variable the launcher reads its mode from. */
export const THROTTLE_ENV = 'NEST_APP_THROTTLE';

/** @typedef {import('../../model/own-app-record.js').ThrottlerGuardFound} ThrottlerGuardFound */
/** @typedef {import('../../model/own-app-record.js').ThrottleRecord} ThrottleRecord */

/** The major from which ttl is given in milliseconds; before it, in seconds. */
const MILLISECOND_TTL_MAJOR = 5;

/**
 * Whether an object is a throttler guard: the ThrottlerGuard of Nest's throttler package of any major, or a subclass of it, from
 * whichever copy the app resolves (instanceof would miss a second copy).
 * @param {unknown} instance
 */
export function isThrottlerGuard(instance) {
  const guard = /** @type {Record<string, unknown> | null} */ (instance);
  return (
    guard !== null &&
    typeof guard === 'object' &&
    typeof guard.canActivate === 'function' &&
    typeof guard.throwThrottlingException === 'function'
  );
}

/**
 * Every throttler guard instance Nest made for the app: an APP_GUARD provider, or a @UseGuards() class.
 * @param {any} app the INestApplication @param {Function} modulesContainer the ModulesContainer class of the app's Nest core
 * @returns {object[]}
 */
export function throttlerGuards(app, modulesContainer) {
  const found = new Set();
  for (const module of app.get(modulesContainer).values())
    for (const wrappers of [module.providers, module.injectables])
      for (const wrapper of wrappers.values()) if (isThrottlerGuard(wrapper.instance)) found.add(wrapper.instance);
  return [...found];
}

/**
 * Applies the mode to each guard: count lets its refusal pass (its throwThrottlingException does nothing, so it goes
 * on to set its headers and answer true), lift lets every request through before it runs.
 * @param {object[]} guards @param {ThrottleMode} mode
 */
export function applyThrottleMode(guards, mode) {
  for (const guard of guards) {
    const own = /** @type {Record<string, unknown>} */ (guard);
    if (mode === THROTTLE_MODES.count) own.throwThrottlingException = async () => {};
    if (mode === THROTTLE_MODES.lift) own.canActivate = () => true;
  }
}

/**
 * What each guard limits, read from the options Nest gave it (forRoot's or forRootAsync's, resolved): an array of
 * named throttlers or { throttlers } from major 5, { ttl, limit } before it.
 * @param {any} guard @param {string} version
 * @returns {ThrottlerGuardFound}
 */
export function describeGuard(guard, version) {
  const options = guard.options ?? {};
  const major = Number.parseInt(version, 10);
  const named = Array.isArray(options) || Array.isArray(options.throttlers);
  const throttlers = Array.isArray(options) ? options : (options.throttlers ?? [options]);
  // named throttlers came with major 5, as ttl in milliseconds did
  const unit = (Number.isNaN(major) ? named : major >= MILLISECOND_TTL_MAJOR) ? 1000 : 1;
  /** @param {unknown} value @param {(n: number) => string} shown */
  const setting = (value, shown) =>
    typeof value === 'function' ? 'set per request' : value === undefined ? 'none' : shown(Number(value));
  return {
    guard: guard.constructor?.name ?? 'ThrottlerGuard',
    version,
    limits: throttlers.map((/** @type {any} */ throttler) => ({
      name: throttler.name ?? 'default',
      limit: setting(throttler.limit, String),
      ttl: setting(throttler.ttl, (ttl) => `${ttl / unit} s`),
    })),
  };
}

/**
 * In the launched server, after NestFactory.create: the app's throttler guards, treated as NEST_APP_THROTTLE says
 * (keep when unset), and described for the bench.
 * @param {any} app @param {{ core: any, requireFromApp: NodeJS.Require }} from the app's own packages
 * @returns {ThrottlerGuardFound[]}
 */
export function throttleApp(app, { core, requireFromApp }) {
  const guards = throttlerGuards(app, core.ModulesContainer);
  if (guards.length === 0) return [];
  const mode = /** @type {ThrottleMode} */ (process.env[THROTTLE_ENV] ?? THROTTLE_MODES.keep);
  applyThrottleMode(guards, mode);
  const version = throttlerVersion(requireFromApp);
  return guards.map((guard) => describeGuard(guard, version));
}

/** @param {NodeJS.Require} requireFromApp */
function throttlerVersion(requireFromApp) {
  try {
    return String(requireFromApp('@nestjs/throttler/package.json').version);
  } catch {
    return 'unknown';
  }
}

/**
 * The record's throttle field, when the app registered a throttler guard.
 * @param {{ throttlers?: ThrottlerGuardFound[] }} discovered the launcher's routes answer
 * @param {{ throttler?: { forRoot: string | null } }} scan
 * @param {{ keepThrottle?: boolean }} flags
 * @returns {{ throttle?: ThrottleRecord }}
 */
export function throttleRecord({ throttlers = [] }, scan, { keepThrottle = false }) {
  if (throttlers.length === 0) return {};
  const timed = keepThrottle ? THROTTLE_MODES.keep : THROTTLE_MODES.lift;
  return { throttle: { timed, guards: throttlers, forRoot: scan.throttler?.forRoot ?? null } };
}
