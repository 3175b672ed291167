import Fastify, { LogController, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorCode } from '@classwave/shared';
import type { Config } from '../config.js';
import { installAccessLog } from './access-log.js';
import type { BuiltClient } from './client.js';
import { errorBody, installErrorHandler } from './errors.js';
import {
  installSecurityHeaders,
  inlineScriptsOf,
  securityHeaderOptions,
  securityHeaders,
  securityHeadersFor,
} from './security-headers.js';
import { buildSerializer } from './serializer.js';
import { installJsonParser, installValidation } from './validation.js';

const BODY_LIMIT = 256 * 1024;

/**
 * The HTTP server with what every request goes through: logging, proxy trust, body limits, safe
 * JSON, validation, one error shape, and the security headers (the built page's own inline scripts
 * allowed by their hash).
 */
export function createHttpServer(config: Config, client: BuiltClient | undefined) {
  const headers = securityHeaders(
    securityHeaderOptions(config.appOrigin, client ? inlineScriptsOf(client.page) : []),
  );
  const headersFor = securityHeadersFor(headers);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(config.nodeEnv === 'development' && config.logLevel !== 'silent'
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
            },
          }
        : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    // Fastify's own request logging writes two lines per request, each serializing the request or
    // reply objects. One compact access line (installAccessLog) says the same for a fraction of
    // the cost; errors are still logged in full by our error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // Only as many proxy hops as configured are believed for the client address (rate limits key on it).
    trustProxy: config.trustProxy === false ? false : trustHops(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    // Parse JSON bodies safely: prototype-polluting keys are refused, not merged.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { maxParamLength: 200 },
    // Fastify's serializer, each "S or null" in a response schema serialized without ajv (serializer.ts).
    schemaController: { compilersFactory: { buildSerializer } },
    // A URL the router can't read (broken %-encoding, an over-long id) gets our error shape and headers too.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as unknown as FastifyReply)
        .headers(headersFor(request.url))
        .status(status)
        .send(
          errorBody(status, ErrorCode.validationFailed, 'The URL is not valid: check the path and its ids.'),
        );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installAccessLog(app);
  installValidation(app);
  installErrorHandler(app);
  installJsonParser(app);
  installSecurityHeaders(app, headers);
  app.decorateRequest('caller', null);
  return app;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
