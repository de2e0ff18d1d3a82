import {
  BadRequestException,
  Catch,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
  type ArgumentsHost,
} from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';

/**
 * Gives a body that could not be parsed the same answer on both adapters.
 *
 * Nest turns a parser's error into an HttpException before exception filters
 * run, but keeps the parser's own words and leaves out "error": Express's
 * body-parser says `{"statusCode":400,"message":"Unexpected token..."}`,
 * Fastify `{"statusCode":400,"message":"Body is not valid JSON but..."}`.
 * This filter answers in Nest's usual shape, `{"message","error","statusCode"}`,
 * with one message per status. Every other exception passes through as is.
 */
@Catch(HttpException)
export class BodyParserErrorFilter extends BaseExceptionFilter {
  constructor(
    httpAdapter: ConstructorParameters<typeof BaseExceptionFilter>[0],
    private readonly bodyLimitBytes: number,
  ) {
    super(httpAdapter);
  }

  override catch(exception: HttpException, host: ArgumentsHost): void {
    const status = bodyParserErrorStatus(exception.cause);
    super.catch(status === undefined ? exception : this.normalise(status), host);
  }

  private normalise(status: number): HttpException {
    switch (status) {
      case 400:
        return new BadRequestException('Request body could not be read as JSON');
      case 413:
        return new PayloadTooLargeException(`Request body is larger than ${this.bodyLimitBytes} bytes`);
      case 415:
        return new UnsupportedMediaTypeException('Request body must be application/json');
      default: {
        const error = STATUS_CODES[status] ?? 'Error';
        return new HttpException(HttpException.createBody(error, error, status), status);
      }
    }
  }
}

/** The status of an error raised while reading or parsing a request body, or undefined for any other error. */
function bodyParserErrorStatus(cause: unknown): number | undefined {
  const error = cause as { status?: unknown; expose?: unknown; code?: unknown; statusCode?: unknown } | undefined;
  // Express: body-parser reports through http-errors, which mark every error with `status` and `expose`
  if (typeof error?.status === 'number' && typeof error.expose === 'boolean') return error.status;
  // Fastify: content-type parser errors, e.g. FST_ERR_CTP_INVALID_JSON_BODY or FST_ERR_CTP_BODY_TOO_LARGE
  if (
    typeof error?.code === 'string' &&
    error.code.startsWith('FST_ERR_CTP_') &&
    typeof error.statusCode === 'number'
  ) {
    return error.statusCode;
  }
  return undefined;
}
