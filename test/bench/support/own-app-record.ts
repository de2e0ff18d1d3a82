// What results.json records of a --nest-app run, for tests of what the analysis and reports make of it: each builder
// fills what a test does not care about as a run of an app with nothing to report would.
import type { RouteEntry } from '../../../bench/own-app/app-config.js';
import type { AdapterAnswer, RouteCompatibility } from '../../../bench/own-app/compatibility.js';
import type { OwnAppRecord } from '../../../bench/own-app/own-app.js';

/** An answer both adapters could give: 200 with JSON. */
export const answerOf = (status: number, body = '{}'): AdapterAnswer => ({
  status,
  contentType: 'application/json',
  error: null,
  body,
});

/** A route Nest registered and the bench measured as `scenario`. */
export function routeEntry(entry: Pick<RouteEntry, 'method' | 'path' | 'scenario'> & Partial<RouteEntry>): RouteEntry {
  return {
    handler: `Controller.${entry.scenario ?? 'route'}`,
    request: `${entry.method} ${entry.path}`,
    notMeasured: null,
    logged: 0,
    ...entry,
  };
}

/** A route both adapters answered alike with `status`. */
export function routeCompatibility(
  check: Pick<RouteCompatibility, 'scenario' | 'request'> & Partial<RouteCompatibility>,
  status = 200,
): RouteCompatibility {
  return {
    same: true,
    difference: null,
    express: answerOf(status),
    fastify: answerOf(status),
    bodyVaries: false,
    expect: { status, contentType: 'application/json', body: {} },
    notMeasured: null,
    ...check,
  };
}

/** The record of an app that booted on both adapters, with `record`'s routes and findings. */
export function ownAppRecord(record: Partial<OwnAppRecord> = {}): OwnAppRecord {
  return {
    module: 'dist/app.module.js',
    setup: null,
    versions: {},
    routes: [],
    compatibility: { startFailure: null, routes: [] },
    traffic: null,
    mix: null,
    ...record,
  };
}
