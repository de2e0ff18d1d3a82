import { HttpException } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';

/**
 * Fastify's router answers a bad URL (FST_ERR_BAD_URL, e.g. "%FF") or a too
 * long path parameter (FST_ERR_MAX_PARAM_LENGTH) itself, before Nest sees the
 * request, in its own shape with a "code" field. Passed to the adapter as
 * `frameworkErrors`, this keeps Fastify's status and message in Nest's shape.
 */
export function answerFastifyFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  reply.code(status).send(HttpException.createBody(error.message, STATUS_CODES[status] ?? 'Error', status));
}
