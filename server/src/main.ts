/** Starts Classwave: reads the config, builds the app, listens, and shuts down gracefully. */
import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { runPrimary, serveAsWorker } from './cluster.js';
import { ConfigError, loadConfig, type Config } from './config.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

// Several processes need a database server: PGlite lives inside one process and its files allow one.
const processes = config.databaseUrl ? (config.workers ?? 1) : 1;
if (config.workers !== undefined && !config.databaseUrl && cluster.isPrimary)
  console.warn(
    `WORKERS=${process.env.WORKERS} is ignored: the embedded database (PGlite) is single-process. ` +
      'Set DATABASE_URL to run several server processes.',
  );
if (processes > 1 && cluster.isPrimary) {
  await runPrimary(config, processes);
} else {
  await runServer(config);
}

async function runServer(config: Config): Promise<void> {
  const app = await buildApp(config);
  const SHUTDOWN_TIMEOUT_MS = 10_000;
  let shuttingDown = false;

  async function shutdown(signal: string): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info(`${signal} received: finishing in-flight requests, then closing`);
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      // Stops accepting connections, waits for in-flight requests, then runs onClose hooks (database, mail).
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  }
  // `on`, not `once`: Ctrl+C reaches this process twice under `npm start` (from the terminal and
  // forwarded by scripts/start.mjs), and a second SIGINT must not cut the graceful shutdown short.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Started by `npm start` (scripts/start.mjs) with an IPC channel: if that parent goes away without
  // passing on a signal (SIGKILL, a crash), stop too rather than keep the port as an orphan.
  if (process.connected) process.once('disconnect', () => void shutdown('parent exited'));

  if (cluster.isWorker) {
    await serveAsWorker(app);
    return;
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.error({ err: error }, `could not listen on ${config.host}:${config.port}`);
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = config.appOrigin.endsWith(`:${config.port}`)
    ? config.appOrigin.replace(`:${config.port}`, `:${port}`)
    : config.appOrigin;
  const database =
    app.core.database.kind === 'pglite'
      ? `embedded PostgreSQL (PGlite) in ${config.dataDir}`
      : 'PostgreSQL server';
  console.log(`\n  Classwave is running at ${where}\n  Database: ${database}\n`);
}
