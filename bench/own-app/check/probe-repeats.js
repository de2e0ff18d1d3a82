// @ts-check
// Which probe answers only show the route's own failure again: they are left out of the findings.

/** Fastify's answer to a content type it has no parser for. */
const UNSUPPORTED_MEDIA_TYPE = 415;

/**
 * A probe Fastify answered with the route's own failure says nothing new: the same 5xx and the same logged error,
 * whatever Express answered it (a preflight's 204 beside the route's 200), or the 415 the route's own content type got,
 * sent again by a probe that keeps it (project_5's upload with cookies: multipart again, 415 again).
 * @param {{ status: number | null, error: string | null }} own the route's own request on Fastify
 * @param {{ status: number | null, error: string | null }} probe the probe on Fastify
 * @param {boolean} [sameType] the probe sends the route's own content type
 */
export function repeatsOwnFailure(own, probe, sameType = false) {
  if (sameType && own.status === UNSUPPORTED_MEDIA_TYPE && probe.status === UNSUPPORTED_MEDIA_TYPE) return true;
  return own.status !== null && own.status >= 500 && probe.status === own.status && probe.error === own.error;
}
