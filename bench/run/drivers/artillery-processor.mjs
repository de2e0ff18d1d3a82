// @ts-check
// Loaded by Artillery beside each script the bench writes (artillery-script.js): every virtual user holds one
// connection and sends its requests back to back until the run's time is up, as the bench's other drivers do.
// It records, as custom metrics in Artillery's report, the run's window and the CPU Artillery used within it.

/**
 * What Artillery hands a hook (its engine_http.js): a virtual user's variables, its metrics' emitter, a request's
 * options as the step gave them.
 * @typedef {{ vars: Record<string, any> }} Context
 * @typedef {{ emit: (kind: 'counter' | 'histogram', name: string, value: number) => void }} Events
 * @typedef {Record<string, any>} RequestParams
 */

/** When this Artillery process's first virtual user started, and its CPU then. */
let startedAt = 0;
/** @type {NodeJS.CpuUsage | undefined} */
let cpuAtStart;

/**
 * beforeScenario: the run's clock starts with the first virtual user.
 * @param {Context} context @param {Events} events @param {() => void} done
 */
export function benchStart(context, events, done) {
  if (cpuAtStart === undefined) {
    startedAt = performance.now();
    cpuAtStart = process.cpuUsage();
  }
  context.vars.benchEndsAt = startedAt + Number(context.vars.benchRunMs);
  done();
}

/**
 * The loop's whileTrue: go on until the run's time is up.
 * @param {Context} context @param {(more: boolean) => void} done
 */
export function benchRunning(context, done) {
  done(performance.now() < context.vars.benchEndsAt);
}

/**
 * beforeRequest: no cookies sent back (the other drivers send none), a body of bytes decoded, unique values filled,
 * and a mix's request counted for its route.
 * @param {RequestParams} request @param {Context} context @param {Events} events @param {() => void} done
 */
export function benchRequest(request, context, events, done) {
  delete request.cookieJar;
  if (request.benchBodyBase64 !== undefined) request.body = Buffer.from(request.benchBodyBase64, 'base64');
  if (request.benchUnique) request.body = request.body.replaceAll('{{unique}}', () => nextUnique(context));
  if (request.benchRoute !== undefined) events.emit('counter', `bench.sent.${request.benchRoute}`, 1);
  done();
}

/** Two letters of this process's own, so the workers of a distributed run (one script each) never collide. */
const processTag = Math.floor(Math.random() * 36 ** 2)
  .toString(36)
  .padStart(2, '0');
let uniqueCount = 0;
/**
 * A value no request of this run sent before: the run's tag, the process's and a count.
 * @param {Context} context
 */
function nextUnique(context) {
  return `${context.vars.benchTag}${processTag}${(uniqueCount++).toString(36)}`;
}

/**
 * afterScenario: the window so far and the CPU used in it; the report's maximum of each is the run's.
 * @param {Context} context @param {Events} events @param {() => void} done
 */
export function benchStop(context, events, done) {
  const cpu = process.cpuUsage(cpuAtStart);
  events.emit('histogram', 'bench.window_ms', performance.now() - startedAt);
  events.emit('histogram', 'bench.cpu_ms', (cpu.user + cpu.system) / 1000);
  done();
}
