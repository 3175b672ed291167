/**
 * WORKERS: several server processes on one port (node:cluster). The primary owns the port and
 * hands each connection to a worker, sticky by socket.io session id, so a polling client's
 * requests all reach the process holding its socket (@socket.io/sticky); live events and
 * sign-outs cross the workers through the primary (@socket.io/cluster-adapter), or through Redis
 * when REDIS_URL is set. The primary runs no app: it only routes connections and restarts workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:http';
import { setupPrimary } from '@socket.io/cluster-adapter';
import { setupMaster, setupWorker } from '@socket.io/sticky';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

/** What a worker tells the primary once its app is built and migrated. */
const READY = 'classwave:worker-ready';
const SHUTDOWN_TIMEOUT_MS = 12_000;

/** In a worker: serve the connections the primary hands over instead of listening. */
export async function serveAsWorker(app: FastifyInstance): Promise<void> {
  await app.ready();
  setupWorker(app.core.realtime.io);
  process.send?.({ type: READY });
}

/** In the primary: fork `count` workers, then listen on the port and route connections to them. */
export async function runPrimary(config: Config, count: number): Promise<void> {
  // Sticky routing sends the first bytes of each connection along with it: Buffers need 'advanced'.
  cluster.setupPrimary({ serialization: 'advanced' });
  const httpServer = createServer();
  setupMaster(httpServer, { loadBalancingMethod: 'least-connection' });
  setupPrimary();

  let stopping = false;
  let readyCount = 0;
  const allReady = new Promise<void>((resolve, reject) => {
    cluster.on('message', (_worker, message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === READY && ++readyCount === count) resolve();
    });
    cluster.on('exit', (worker: Worker, code, signal) => {
      if (stopping) return;
      if (readyCount < count) {
        reject(new Error(`a worker exited during start-up (${signal ?? `code ${code}`})`));
      } else if (code !== 0) {
        // A crash: keep the configured number of processes. (Code 0 is a worker's own graceful stop.)
        console.error(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another.`);
        cluster.fork();
      }
    });
  });

  async function shutdown(reason: string, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}: stopping ${count} workers`);
    httpServer.close();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exited = workers.map(
      (w) => new Promise((resolve) => (w.isDead() ? resolve(null) : w.once('exit', resolve))),
    );
    // Each worker finishes its in-flight requests and closes its database pool (its own SIGTERM handler).
    for (const worker of workers) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, SHUTDOWN_TIMEOUT_MS);
    await Promise.all(exited);
    clearTimeout(timer);
    process.exit(exitCode);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (process.connected) process.once('disconnect', () => void shutdown('parent exited'));

  for (let i = 0; i < count; i++) cluster.fork();
  try {
    await allReady;
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    console.error(`Could not start the workers: ${(error as Error).message}`);
    await shutdown('start-up failed', 1);
    return;
  }
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = config.appOrigin.endsWith(`:${config.port}`)
    ? config.appOrigin.replace(`:${config.port}`, `:${port}`)
    : config.appOrigin;
  console.log(`\n  Classwave is running at ${where}\n  ${count} worker processes, PostgreSQL server\n`);
}
