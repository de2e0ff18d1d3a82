import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Longer ids from a client are replaced, not echoed: they would bloat every log line. */
const MAX_INCOMING_ID_LENGTH = 128;

/** The client's X-Request-Id when it sent a usable one, else a fresh UUID: one rule for both adapters. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const incoming = headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && incoming.length > 0 && incoming.length <= MAX_INCOMING_ID_LENGTH
    ? incoming
    : randomUUID();
}
