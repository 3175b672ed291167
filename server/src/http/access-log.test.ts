import Fastify, { LogController } from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { installAccessLog } from './access-log.js';

/** A bare Fastify app logging to memory, with the access log installed as buildApp does. */
async function appLoggingAt(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    logController: new LogController({ disableRequestLogging: true }),
  });
  installAccessLog(app);
  app.get('/api/auth/verify', async () => ({ ok: true }));
  app.get('/api/courses/:id', async (_request, reply) => reply.status(404).send({ missing: true }));
  await app.ready();
  return { app, lines };
}

describe('the access log', () => {
  it('writes one compact line per request at info', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/api/courses/42' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', method: 'GET', url: '/api/courses/42', status: 404 });
    expect(typeof lines[0]?.ms).toBe('number');
    expect(lines[0]).not.toHaveProperty('req');
    expect(lines[0]).not.toHaveProperty('res');
  });

  it('masks the one-use token of a verification link', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/api/auth/verify?token=secret-token-value&x=1' });
    expect(lines[0]?.url).toBe('/api/auth/verify?token=…&x=1');
    expect(JSON.stringify(lines)).not.toContain('secret-token-value');
  });

  it('writes nothing, and adds no hook, above info', async () => {
    const { app, lines } = await appLoggingAt('warn');
    await app.inject({ method: 'GET', url: '/api/courses/42' });
    expect(lines).toEqual([]);
  });
});
