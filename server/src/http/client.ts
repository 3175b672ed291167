import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@classwave/shared';
import type { Config } from '../config.js';
import { errorBody } from './errors.js';

/** The built web app: its directory, and its page (read once: its inline scripts are hashed for the CSP). */
export interface BuiltClient {
  dir: string;
  page: string;
}

/** The built client, or undefined when it has not been built. */
export function builtClient(config: Config): BuiltClient | undefined {
  const dir = config.clientDir ?? path.resolve(import.meta.dirname, '../../../client/dist');
  const page = path.join(dir, 'index.html');
  return existsSync(page) ? { dir, page: readFileSync(page, 'utf8') } : undefined;
}

/** Serves the built client, with index.html for client routes (never for /api or /socket.io). */
export function serveClient(app: FastifyInstance, client: BuiltClient | undefined): void {
  if (client)
    void app.register(fastifyStatic, {
      root: client.dir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset: no compression work per request.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/socket.io');
    if (client && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return reply
      .status(404)
      .send(errorBody(404, ErrorCode.notFound, `No route for ${request.method} ${url}.`));
  });
}
