// What results.json records of a --nest-app run, for tests of what the analysis and reports make of it: each builder
// fills what a test does not care about as a run of an app with nothing to report would.
import type {
  AdapterAnswer,
  OwnAppRecord,
  RouteCompatibility,
  RouteEntry,
} from '../../../bench/model/own-app-record.js';

/** An answer both adapters could give: 200 with JSON. */
export const answerOf = (status: number, body = '{}'): AdapterAnswer => ({
  status,
  contentType: 'application/json',
  error: null,
  body,
});

/** What a route entry holds that a test may leave to the builder. */
type RouteDefaults = 'handler' | 'request' | 'notMeasured' | 'logged';

/** A route Nest registered and the bench measured as `scenario`. */
export function routeEntry(
  entry: Omit<RouteEntry, RouteDefaults> & { [K in RouteDefaults]?: RouteEntry[K] },
): RouteEntry {
  return {
    handler: `Controller.${entry.scenario ?? 'route'}`,
    request: `${entry.method} ${entry.path}`,
    notMeasured: null,
    logged: 0,
    ...entry,
  };
}

/** What a route's check holds that a test may leave to the builder: an answer alike on both adapters. */
type CheckDefaults = 'same' | 'difference' | 'express' | 'fastify' | 'bodyVaries' | 'expect' | 'notMeasured';

/** A route both adapters answered alike with `status`. */
export function routeCompatibility(
  check: Omit<RouteCompatibility, CheckDefaults> & { [K in CheckDefaults]?: RouteCompatibility[K] },
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
