// Baseline: a bare Fastify app, routes with response schemas like the app's, and nothing else
// (no plugins, no auth, no database): the ceiling the app's HTTP figures are compared with.
import Fastify from 'fastify';
import { assignmentListSchema, sampleAssignments } from './payloads.mjs';

const app = Fastify({ logger: false });
const list = sampleAssignments(50);
const healthSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    database: { type: 'object', properties: { status: { type: 'string' }, kind: { type: 'string' } } },
  },
};
app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => ({
  status: 'ok',
  database: { status: 'up', kind: 'none' },
}));
app.get('/assignments', { schema: { response: { 200: assignmentListSchema } } }, async () => list);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
