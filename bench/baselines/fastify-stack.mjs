// Not a target baseline but a diagnostic one: bare Fastify plus the plugins the app registers on
// every request (helmet's headers as the app computes them, CORS, cookies, the rate-limit plugin, swagger), with the
// options server/src/app.ts gives them, and no database. Its distance to `fastify.mjs` is what the
// plugin stack costs; its distance to the app's /api/health is what the database ping and the rest cost.
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import {
  installSecurityHeaders,
  securityHeaderOptions,
  securityHeaders,
} from '../../server/dist/http/security-headers.js';
import { assignmentListSchema, sampleAssignments } from './payloads.mjs';

const port = Number(process.env.PORT);
// BENCH_PLUGINS=helmet,cors,... registers only those (for finding which one costs what).
const only = process.env.BENCH_PLUGINS?.split(',');
const use = (name) => !only || only.includes(name);
const origin = `http://127.0.0.1:${port}`;
const app = Fastify({
  logger: { level: 'warn' },
  bodyLimit: 256 * 1024,
  onProtoPoisoning: 'error',
  onConstructorPoisoning: 'error',
});
if (use('helmet')) installSecurityHeaders(app, securityHeaders(securityHeaderOptions(origin)));
if (use('cors')) await app.register(cors, { origin: [origin], credentials: true });
if (use('cookie')) await app.register(cookie);
if (use('rate-limit')) await app.register(rateLimit, { global: false });
if (use('swagger')) await app.register(swagger, { openapi: { info: { title: 'bench', version: '0' } } });

const list = sampleAssignments(50);
const healthSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    database: { type: 'object', properties: { status: { type: 'string' }, kind: { type: 'string' } } },
  },
};
await app.register(
  async (api) => {
    api.get('/health', { schema: { response: { 200: healthSchema } } }, async () => ({
      status: 'ok',
      database: { status: 'up', kind: 'none' },
    }));
    api.get('/assignments', { schema: { response: { 200: assignmentListSchema } } }, async () => list);
  },
  { prefix: '' },
);
await app.listen({ port, host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
