import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode, type ErrorBody } from '@classwave/shared';
import { isConnectionLost, pgCode } from '../db/errors.js';

/** An error a client caused or may see: its status, stable code and message reach the client as they are. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra headers to send with the error, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
    /** More fields for the body, beside the usual four (e.g. `current` on 409 grade_conflict). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: ErrorCode = ErrorCode.validationFailed) =>
  new AppError(400, code, message);
export const unauthorized = (message = 'Sign in to continue.', code: ErrorCode = ErrorCode.unauthorized) =>
  new AppError(401, code, message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new AppError(403, ErrorCode.forbidden, message);
export const notFound = (message = 'Not found.') => new AppError(404, ErrorCode.notFound, message);
export const conflict = (message: string) => new AppError(409, ErrorCode.conflict, message);

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Fastify's own client-error codes mapped to ours. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ErrorCode.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: ErrorCode.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: ErrorCode.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ErrorCode.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ErrorCode.validationFailed,
  FST_ERR_CTP_INVALID_TYPE: ErrorCode.unsupportedMediaType,
  FST_ERR_VALIDATION: ErrorCode.validationFailed,
};

const FASTIFY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'The request body is not valid JSON.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Send the request body as application/json.',
};

function isDatabaseUnavailable(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  const code = pgCode(error);
  // Connection failures (node) and PostgreSQL's "admin shutdown" / "cannot connect now" classes.
  return (
    code !== undefined &&
    ([
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08003',
      '08006',
    ].includes(code) ||
      code.startsWith('08'))
  );
}

/**
 * PostgreSQL's "data exception" class (22xxx: invalid text for a type, a value out of range, an
 * untranslatable character): the values come from the request, so the request is at fault. The
 * schemas should refuse such values first; this keeps one that slips through from being a 500.
 */
function isDataException(error: unknown): boolean {
  return /^22[0-9A-Z]{3}$/.test(pgCode(error) ?? '');
}

/**
 * The one error handler: AppErrors and Fastify's client errors become the documented shape;
 * anything else is logged and answered with a bare 500 that reveals nothing internal.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send({ ...errorBody(error.statusCode, error.code, error.message), ...error.extra });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply
        .status(400)
        .send(
          errorBody(400, ErrorCode.validationFailed, fastifyError.message || 'The request is not valid.'),
        );
    }
    const status = fastifyError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code: ErrorCode =
        (fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined) ?? ErrorCode.validationFailed;
      const message = FASTIFY_MESSAGES[code] ?? fastifyError.message;
      return reply
        .status(status)
        .send(errorBody(status, status === 429 ? ErrorCode.rateLimited : code, message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply
        .status(503)
        .send(
          errorBody(
            503,
            ErrorCode.serviceUnavailable,
            'The service is briefly unavailable. Please try again.',
          ),
        );
    }
    if (isDataException(error)) {
      request.log.warn({ err: error }, 'a value the database refused');
      return reply
        .status(400)
        .send(errorBody(400, ErrorCode.validationFailed, 'A value in the request is not valid.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(500, ErrorCode.internal, 'Something went wrong on our side.'));
  });
}
