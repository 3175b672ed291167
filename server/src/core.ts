import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createAfterCommit, type AfterCommit } from './after-commit.js';
import { createMailer, type Mailer } from './auth/mailer.js';
import type { Limit, RateLimits } from './auth/limits.js';
import {
  createAuthService,
  defaultAuthSettings,
  type AuthService,
  type AuthSettings,
} from './auth/service.js';
import { createAccessTokens } from './auth/tokens.js';
import type { WrongCodeLimits } from './classes/limits.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase, type Database, type Db } from './db/client.js';
import { DomainEventBus } from './events.js';
import { createJobRunner, type JobRunner } from './jobs/runner.js';
import { createOutbox, type Outbox } from './realtime/outbox.js';
import { createReplayService, type ReplayService } from './realtime/replay.js';
import { createRealtime, type Realtime } from './realtime/socket-server.js';

/** What tests (and only tests) change of the app's defaults. */
export interface AppOptions {
  /** An open database; when absent one is opened from the config and closed with the app. */
  database?: Database;
  clock?: Clock;
  mailer?: Mailer;
  rateLimits?: Partial<RateLimits>;
  auth?: Partial<Omit<AuthSettings, 'appOrigin' | 'refreshKey'>>;
  /** Skip applying migrations (the database is known to be current). */
  skipMigrations?: boolean;
  /** The assistant's reply delay (the spec's 1–2 s by default). */
  chatDelayMs?: { min: number; max: number };
  /** How long live events are kept for replay after a reconnect. */
  eventRetentionMs?: number;
  /** Wrong join codes allowed per account and per IP (DESIGN §11). */
  joinLimits?: Partial<WrongCodeLimits>;
  /** How long a Return with undo waits before sending (DESIGN §13: RETURN_UNDO_SECONDS). */
  returnUndoMs?: number;
  /** Posts and comments per account (DESIGN §19: POST_RATE, COMMENT_RATE). */
  conversationLimits?: Partial<{ posts: Limit; comments: Limit }>;
}

/**
 * What every module is built on (DESIGN §16): the database, the clock, the mailer, Redis, the bus
 * that carries what committed, the outbox that records it, the jobs table, the replay of missed
 * events, the sockets and the sessions. One per app; modules take the parts they need.
 */
export interface Core {
  config: Config;
  options: AppOptions;
  log: FastifyBaseLogger;
  clock: Clock;
  database: Database;
  /** The Drizzle handle (`database.db`). */
  db: Db;
  mailer: Mailer;
  /** Shared rate-limit counters when REDIS_URL is set. */
  redis: Redis | undefined;
  /** In-process domain events; what committed arrives here as `live`. */
  bus: DomainEventBus;
  outbox: Outbox;
  jobs: JobRunner;
  /** Work that follows a commit without holding its answer; closing (and tests) wait for it. */
  afterCommit: AfterCommit;
  replay: ReplayService;
  realtime: Realtime;
  auth: AuthService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's core: tests reach the database, the jobs and the sockets through it. */
    core: Core;
  }
}

const DEFAULT_EVENT_RETENTION_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Opens the core's parts on the app's HTTP server and ties their lifetimes to the app's: each is
 * closed after the modules built on it (Fastify runs close hooks last added first).
 */
export async function createCore(app: FastifyInstance, config: Config, options: AppOptions): Promise<Core> {
  const log = app.log;
  const database =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') }));
  if (!options.database) app.addHook('onClose', () => database.close());
  if (!options.skipMigrations) await database.migrate();
  const { db } = database;
  const clock = options.clock ?? systemClock;
  const mailer = options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log });
  app.addHook('onClose', async () => mailer.close());
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());

  const bus = new DomainEventBus();
  const outbox = createOutbox({ db, bus, clock });
  const afterCommit = createAfterCommit();
  app.addHook('onClose', () => afterCommit.settled());
  const jobs = createJobRunner({
    db,
    outbox,
    clock,
    mailer,
    appOrigin: config.appOrigin,
    log,
    wakeUps: config.jobPollMs > 0,
  });
  // Polling starts once the app is ready and stops before the database closes.
  app.addHook('onReady', () => jobs.start(config.jobPollMs));
  app.addHook('preClose', () => jobs.stop());

  const replay = createReplayService({
    db,
    clock,
    retentionMs: options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS,
  });
  const pruner = setInterval(
    () => void replay.prune().catch((err) => log.warn({ err }, 'event pruning failed')),
    PRUNE_EVERY_MS,
  );
  pruner.unref();
  app.addHook('onClose', async () => clearInterval(pruner));

  const auth = createAuthService({
    db,
    clock,
    mailer,
    tokens: createAccessTokens(config.jwtSecret),
    bus,
    settings: {
      ...defaultAuthSettings,
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      ...options.auth,
      appOrigin: config.appOrigin,
      teacherSignup: config.teacherSignup,
      refreshKey: createHash('sha256').update(`refresh:${config.jwtSecret}`).digest('base64url'),
    },
  });
  const realtime = createRealtime({
    httpServer: app.server,
    appOrigin: config.appOrigin,
    redisUrl: config.redisUrl,
    clusterWorker: cluster.isWorker,
    auth,
    bus,
    replay,
    db,
    clock,
    log,
  });
  app.addHook('preClose', async () => realtime.disconnectAll());
  app.addHook('onClose', () => realtime.close());

  const core: Core = {
    config,
    options,
    log,
    clock,
    database,
    db,
    mailer,
    redis,
    bus,
    outbox,
    jobs,
    afterCommit,
    replay,
    realtime,
    auth,
  };
  app.decorate('core', core);
  return core;
}

function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', (err) => log.warn({ err }, 'redis error'));
  return redis;
}
