// Baseline: bare node:http, the same JSON bodies as the bare Fastify baseline, no framework.
import http from 'node:http';
import { sampleAssignments } from './payloads.mjs';

const health = JSON.stringify({ status: 'ok', database: { status: 'up', kind: 'none' } });
const list = sampleAssignments(50);
const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (req.url === '/health') return res.end(health);
  if (req.url === '/assignments') return res.end(JSON.stringify(list));
  res.statusCode = 404;
  res.end('{}');
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
