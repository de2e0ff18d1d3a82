// @ts-check
// The app's rate limiters while the bench measures it, treated as the bench asks (NEST_APP_THROTTLE): @nestjs/throttler's
// guards (any major, the app's own copy, subclasses included) and the app's own guards that refuse with 429, found in
// the booted app; express-rate-limit, @fastify/rate-limit and rate-limiter-flexible, changed before the app loads them.
// The app is not edited: what it loads is changed in the bench's server process only.

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
/** @typedef {import('../scan/scan-limiters.js').LimiterFound} LimiterFound */
/** @typedef {Omit<LimiterFound, 'liftable'> & { lifted: boolean }} LimiterTimed a limiter as the timed servers had it */

const KEPT_NOTE =
  'kept as it is while timing (--keep-throttle): a route it refused under load has no ratio, and the refusal is its finding';

/** The major from which ttl is given in milliseconds; before it, in seconds. */
const MILLISECOND_TTL_MAJOR = 5;
/** A refusal with 429 in code, as written or compiled: the number, HttpStatus.TOO_MANY_REQUESTS, the throttler's
 * exception, a TooManyRequests… class of the app's. */
export const TOO_MANY_REQUESTS = /\b429\b|TOO_MANY_REQUESTS|ThrottlerException|TooManyRequests/;
const TOO_MANY_REQUESTS_STATUS = 429;

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
 * Every guard instance of the app's: an APP_GUARD provider, a @UseGuards() class, one given to useGlobalGuards().
 * @param {any} app the INestApplication @param {Function} modulesContainer the ModulesContainer class of the app's Nest core
 * @returns {Set<Record<string, any>>}
 */
function appGuards(app, modulesContainer) {
  const found = new Set(app.config?.getGlobalGuards?.() ?? []);
  for (const module of app.get(modulesContainer).values())
    for (const wrappers of [module.providers, module.injectables])
      for (const wrapper of wrappers.values())
        if (typeof wrapper.instance?.canActivate === 'function') found.add(wrapper.instance);
  return found;
}

/**
 * Every throttler guard instance Nest made for the app.
 * @param {any} app the INestApplication @param {Function} modulesContainer the ModulesContainer class of the app's Nest core
 * @returns {object[]}
 */
export function throttlerGuards(app, modulesContainer) {
  return [...appGuards(app, modulesContainer)].filter(isThrottlerGuard);
}

/**
 * The app's own guards that refuse with 429 (a rate limit of its own, not @nestjs/throttler's): their class's code, or
 * a class it extends, names the status (TOO_MANY_REQUESTS), as the scan finds them (scan-limiters.js).
 * @param {any} app @param {Function} modulesContainer
 * @returns {object[]}
 */
export function limitingGuards(app, modulesContainer) {
  return [...appGuards(app, modulesContainer)].filter(
    (guard) => !isThrottlerGuard(guard) && classChain(guard).some((code) => TOO_MANY_REQUESTS.test(code)),
  );
}

/** The code of an object's class and the classes it extends. @param {object} instance */
function classChain(instance) {
  const code = [];
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  )
    code.push(Function.prototype.toString.call(proto.constructor));
  return code;
}

/**
 * A guard of the app's own that refuses with 429 still runs on every request (it may sign in or check roles too), but
 * its 429 lets the request through instead: a thrown HttpException whose status is 429, sync or in its promise. What
 * it returns otherwise (false, an Observable, another refusal) is left as it is.
 * @param {object[]} guards
 */
export function letTooManyRequestsThrough(guards) {
  for (const guard of guards) {
    const own = /** @type {Record<string, any>} */ (guard);
    const canActivate = own.canActivate;
    /** @param {unknown} error */
    const passed = (error) => {
      if (refusesTooMany(error)) return true;
      throw error;
    };
    /** @this {unknown} @param {unknown} context */
    own.canActivate = function (context) {
      let result;
      try {
        result = canActivate.call(this, context);
      } catch (error) {
        return passed(error);
      }
      return typeof result?.then === 'function' ? result.then(undefined, passed) : result;
    };
  }
}

/** @param {any} error */
function refusesTooMany(error) {
  const status = typeof error?.getStatus === 'function' ? error.getStatus() : error?.status;
  return status === TOO_MANY_REQUESTS_STATUS;
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
  const mode = throttleMode();
  if (mode !== THROTTLE_MODES.keep) letTooManyRequestsThrough(limitingGuards(app, core.ModulesContainer));
  const guards = throttlerGuards(app, core.ModulesContainer);
  if (guards.length === 0) return [];
  applyThrottleMode(guards, mode);
  const version = throttlerVersion(requireFromApp);
  return guards.map((guard) => describeGuard(guard, version));
}

/** The mode NEST_APP_THROTTLE asks for: keep when unset. @returns {ThrottleMode} */
function throttleMode() {
  return /** @type {ThrottleMode} */ (process.env[THROTTLE_ENV] ?? THROTTLE_MODES.keep);
}

/**
 * What each limiter package is given so that what the app makes with it lets the bench through: lift, it passes every
 * request without counting; count, it counts and sets its headers but never refuses. optionsAt: which argument of its
 * export takes the options (a middleware factory's first, a Fastify plugin's second).
 * @type {Record<string, { optionsAt: number } & Record<Exclude<ThrottleMode, 'keep'>, Record<string, unknown>>>}
 */
const LIFTED_OPTIONS = {
  'express-rate-limit': {
    optionsAt: 0,
    lift: { skip: () => true },
    count: {
      handler: (/** @type {unknown} */ _req, /** @type {unknown} */ _res, /** @type {() => void} */ next) => next(),
    },
  },
  // a route's own config.rateLimit still overrides these
  '@fastify/rate-limit': { optionsAt: 1, lift: { allowList: () => true }, count: { max: Number.MAX_SAFE_INTEGER } },
};
/** A function's own properties that are not its exports. */
const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'caller', 'arguments']);

/**
 * Before the app loads (the launcher's first step): the limiter packages the app resolves, changed in this process as
 * NEST_APP_THROTTLE asks. express-rate-limit and @fastify/rate-limit are handed the options above over the app's
 * (their CommonJS build: an ES module app loads express-rate-limit's own ESM build, which the scan names instead);
 * rate-limiter-flexible's consume() resolves.
 * @param {NodeJS.Require} requireFromApp @param {ThrottleMode} [mode]
 * @returns {string[]} the packages changed
 */
export function liftLimiterPackages(requireFromApp, mode = throttleMode()) {
  if (mode === THROTTLE_MODES.keep) return [];
  const changed = [];
  for (const [name, options] of Object.entries(LIFTED_OPTIONS)) {
    const path = resolvedFrom(requireFromApp, name);
    if (path && withOptions(requireFromApp, path, options.optionsAt, options[mode])) changed.push(name);
  }
  const flexible = resolvedFrom(requireFromApp, 'rate-limiter-flexible');
  if (flexible && consumeResolves(requireFromApp(flexible), mode)) changed.push('rate-limiter-flexible');
  return changed;
}

/** @param {NodeJS.Require} requireFromApp @param {string} name @returns {string | null} */
function resolvedFrom(requireFromApp, name) {
  try {
    return requireFromApp.resolve(name);
  } catch {
    return null;
  }
}

/**
 * Replaces a CommonJS package's exported function (a middleware factory, a Fastify plugin) with one that calls it with
 * the given options over the app's; its other exports, and a plugin's own symbols, are kept.
 * @param {NodeJS.Require} requireFromApp @param {string} path @param {number} optionsAt
 * @param {Record<string, unknown>} given
 */
function withOptions(requireFromApp, path, optionsAt, given) {
  const original = requireFromApp(path);
  const made = typeof original === 'function' ? original : original?.default;
  if (typeof made !== 'function') return false;
  /** @this {unknown} @param {unknown[]} args */
  const lifted = function (...args) {
    const sent = [...args];
    sent[optionsAt] = { .../** @type {object | undefined} */ (args[optionsAt]), ...given };
    return made.apply(this, sent);
  };
  const exported = typeof original === 'function' ? lifted : {};
  for (const source of new Set([made, original]))
    for (const key of Reflect.ownKeys(source)) {
      if (typeof key === 'string' && FUNCTION_OWN.has(key) && typeof source === 'function') continue;
      const descriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(source, key));
      const value = descriptor.get ? descriptor.get.call(source) : descriptor.value;
      Object.defineProperty(
        exported,
        key,
        value === made
          ? { value: lifted, enumerable: descriptor.enumerable, writable: true, configurable: true }
          : descriptor,
      );
    }
  /** @type {NodeJS.Module} */ (requireFromApp.cache[path]).exports = exported;
  return true;
}

/**
 * rate-limiter-flexible's limiters (the consume() of each exported class, or of the class it extends that has one:
 * RateLimiterRedis's is its store base's): lift, consume() resolves at once with all its points left; count, it runs
 * and a rejection for being over the limit resolves instead.
 * @param {Record<string, any>} flexible the app's copy @param {Exclude<ThrottleMode, 'keep'>} mode
 */
function consumeResolves(flexible, mode) {
  const { RateLimiterRes } = flexible;
  if (typeof RateLimiterRes !== 'function') return false;
  /** @type {Set<Record<string, any>>} */
  const owners = new Set();
  for (const value of Object.values(flexible)) {
    if (typeof value !== 'function' || value === RateLimiterRes) continue;
    let proto = value.prototype;
    while (proto && proto !== Object.prototype && !Object.hasOwn(proto, 'consume'))
      proto = Object.getPrototypeOf(proto);
    if (proto && proto !== Object.prototype) owners.add(proto);
  }
  for (const owner of owners) {
    const consume = owner.consume;
    owner.consume =
      mode === THROTTLE_MODES.lift
        ? /** @this {{ points: number }} */ function () {
            return Promise.resolve(new RateLimiterRes(this.points, 0, 0));
          }
        : /** @this {unknown} @param {unknown[]} args */ function (...args) {
            return consume
              .apply(this, args)
              .catch((/** @type {unknown} */ refused) =>
                refused instanceof RateLimiterRes ? refused : Promise.reject(refused),
              );
          };
  }
  return owners.size > 0;
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
 * The record's throttle field, when the app registered a throttler guard or the scan found another limiter (the report
 * names each with its file:line and limits, as it names ThrottlerModule's); with --keep-throttle every limiter is kept.
 * @param {{ throttlers?: ThrottlerGuardFound[] }} discovered the launcher's routes answer
 * @param {{ throttler?: { forRoot: string | null }, limiters?: LimiterFound[] }} scan
 * @param {{ keepThrottle?: boolean }} flags
 * @returns {{ throttle?: ThrottleRecord & { limiters?: LimiterTimed[] } }}
 */
export function throttleRecord({ throttlers = [] }, scan, { keepThrottle = false }) {
  const limiters = (scan.limiters ?? []).map(({ liftable, ...limiter }) =>
    keepThrottle && liftable ? { ...limiter, lifted: false, note: KEPT_NOTE } : { ...limiter, lifted: liftable },
  );
  if (throttlers.length === 0 && limiters.length === 0) return {};
  const timed = keepThrottle ? THROTTLE_MODES.keep : THROTTLE_MODES.lift;
  return {
    throttle: {
      timed,
      guards: throttlers,
      forRoot: scan.throttler?.forRoot ?? null,
      ...(limiters.length ? { limiters } : {}),
    },
  };
}
