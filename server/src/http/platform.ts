import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, HealthResponse } from '@classwave/shared';
import { tryAgainMessage } from '../auth/limits.js';
import type { Core } from '../core.js';
import { errorBody } from './errors.js';

/** Health checks share one database ping per second, so a monitor polling hard can't load the database. */
const HEALTH_PING_MAX_AGE_MS = 1000;

/**
 * What serves every module rather than being one: rate limiting (its counters in Redis when there
 * is one), the OpenAPI document at /api/docs, and /api/health for monitors and load balancers.
 */
export async function registerPlatform(app: FastifyInstance, core: Core): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(core.redis ? { redis: core.redis, nameSpace: 'classwave-rl:', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => ({
      ...errorBody(429, ErrorCode.rateLimited, tryAgainMessage(context.ttl)),
      statusCode: 429,
    }),
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Classwave API',
        version: '0.1.0',
        description: 'Courses, assignments, submissions and grades, live.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const databaseUp = recentPing(() => core.database.ping(), HEALTH_PING_MAX_AGE_MS);
  // Outside the /api scope: a monitor's poll needs no CORS (nor any other /api hook).
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Is the server and its database up?',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const up = await databaseUp();
      return reply.status(up ? 200 : 503).send({
        status: up ? 'ok' : 'degraded',
        database: { status: up ? 'up' : 'down', kind: core.database.kind },
      });
    },
  );
}

/** The answer of one ping shared by every caller until it is `maxAgeMs` old. */
function recentPing(ping: () => Promise<boolean>, maxAgeMs: number): () => Promise<boolean> {
  let last: { at: number; up: Promise<boolean> } | undefined;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > maxAgeMs) last = { at: now, up: ping() };
    return last.up;
  };
}
