// @ts-check
// The Artillery script for one run: the bench's closed loop (one virtual user per connection, each sending its requests
// back to back until the run's time is up) over a verified scenario's requests, with the target as a URL, so the same
// script runs here and spread over many workers against a deployed app.
import { bodyBytes, isFormOfBytes } from '../../model/payloads.js';
import { hasUniqueValues } from '../unique-values.js';

/** @typedef {import('./registry.js').LoadRequest} LoadRequest */
/** @typedef {import('./registry.js').RouteRequest} RouteRequest */

/** The processor the script names, kept beside it (artillery-processor.mjs). */
export const PROCESSOR_FILE = 'artillery-processor.mjs';
/** Artillery's own default for an answer's time; a run's own length when longer, as wrk's timeout is. */
const DEFAULT_TIMEOUT_SEC = 2;
/** The virtual users arrive within this time, one per connection, before the run's clock starts. */
const ARRIVALS_WITHIN = '100ms';

/**
 * @param {LoadRequest} request
 * @param {string} tag this run's prefix for unique values (unique-values.js runTag)
 * @returns {object} Artillery's script, as JSON (YAML's superset, which Artillery reads)
 */
export function artilleryScript(request, tag) {
  const { url, method, headers, body, sequence, connections, durationSec } = request;
  const { origin, pathname, search } = new URL(url);
  const steps = sequence
    ? sequence.map((each) => step({ ...each, headers: { ...headers, ...each.headers } }, true))
    : [step({ route: 'single', method, path: pathname + search, headers, body, expectedStatus: 0 }, false)];
  return {
    config: {
      target: origin,
      phases: [{ duration: ARRIVALS_WITHIN, arrivalCount: connections }],
      http: { timeout: Math.max(DEFAULT_TIMEOUT_SEC, Math.ceil(durationSec)) },
      processor: `./${PROCESSOR_FILE}`,
      variables: { benchRunMs: Math.round(durationSec * 1000), benchTag: tag },
    },
    scenarios: [
      {
        name: 'bench',
        beforeScenario: 'benchStart',
        afterScenario: 'benchStop',
        beforeRequest: 'benchRequest',
        flow: [{ loop: steps, whileTrue: 'benchRunning' }],
      },
    ],
  };
}

/**
 * One request as an Artillery step: redirects not followed and answers not decompressed (the other drivers do
 * neither), a body of bytes in base64 for the processor to decode.
 * @param {RouteRequest} request
 * @param {boolean} counted a mix's request, counted per route
 */
function step({ route, method, path, headers, body }, counted) {
  const bytes = body !== undefined && isFormOfBytes(headers);
  return {
    [method.toLowerCase()]: {
      url: path,
      headers,
      followRedirect: false,
      gzip: false,
      ...(bytes ? { benchBodyBase64: bodyBytes(/** @type {string} */ (body), headers).toString('base64') } : {}),
      ...(body !== undefined && !bytes ? { body } : {}),
      ...(hasUniqueValues(body) && !bytes ? { benchUnique: true } : {}),
      ...(counted ? { benchRoute: route } : {}),
    },
  };
}

/**
 * What runs the kept script spread over many workers against a deployed app (Artillery's own CLI, on AWS Fargate):
 * each worker runs the whole script, so `--count N` holds N times the connections.
 * @param {string} scriptFile as kept in the results folder
 */
export function distributedCommand(scriptFile) {
  return `npx artillery run-fargate --region us-east-1 --count 10 --target https://your-app.example.com ${scriptFile}`;
}
