import cluster from 'node:cluster';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import { ErrorCode, HealthResponse } from '@classwave/shared';
import { createHash } from 'node:crypto';
import { assignmentRoutes } from './assignments/routes.js';
import { prepareAssignmentLists } from './assignments/queries.js';
import { createAssignmentReadModel } from './assignments/read-model.js';
import { createAssignmentService } from './assignments/service.js';
import { createAuthenticateHook } from './auth/authenticate.js';
import { classRoutes } from './classes/routes.js';
import {
  createWrongCodeLimiter,
  defaultWrongCodeLimits,
  scaleWrongCodeLimits,
  type WrongCodeLimits,
} from './classes/limits.js';
import { createClassService } from './classes/service.js';
import { courseRoutes } from './courses/routes.js';
import { createCourseService } from './courses/service.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { createDashboardService } from './dashboard/service.js';
import { submissionRoutes } from './submissions/routes.js';
import { createSubmissionService } from './submissions/service.js';
import { createDeriver } from './notifications/derive.js';
import { createSubmissionBatcher } from './notifications/submission-batches.js';
import { createJobRunner, defaultJobHandlers, type JobRunner } from './notifications/jobs.js';
import { calendarFeedRoutes, notificationRoutes } from './notifications/routes.js';
import { createNotificationService } from './notifications/service.js';
import { createDraftService } from './submissions/drafts.js';
import { createOutbox } from './realtime/outbox.js';
import { createReplayService, type ReplayService } from './realtime/replay.js';
import { replayRoutes } from './realtime/routes.js';
import { createRealtime, type AppIo } from './realtime/socket-server.js';
import { createMailer, type Mailer } from './auth/mailer.js';
import { accountRoutes } from './account/routes.js';
import { createAccountService } from './account/service.js';
import { defaultRateLimits, scalePerIp, tryAgainMessage, type RateLimits } from './auth/limits.js';
import { createRecoveryService } from './auth/recovery.js';
import { authRoutes, meRoutes } from './auth/routes.js';
import { createAuthService, defaultAuthSettings, type AuthSettings } from './auth/service.js';
import { createAccessTokens } from './auth/tokens.js';
import { systemClock, type Clock } from './clock.js';
import { createPanelService } from './grading/panel.js';
import { gradingRoutes } from './grading/routes.js';
import { createGradingService } from './grading/service.js';
import { createJobWakeUps, returnJobHandlers } from './grading/scheduled-returns.js';
import { installPresence, presenceOn } from './realtime/presence.js';
import { installPanelWatch } from './realtime/panel-watch.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { DomainEventBus } from './events.js';
import { errorBody, installErrorHandler } from './http/errors.js';
import {
  installSecurityHeaders,
  inlineScriptsOf,
  securityHeaderOptions,
  securityHeaders,
  securityHeadersFor,
} from './http/security-headers.js';
import { installAccessLog } from './http/access-log.js';
import { installJsonParser, installValidation } from './http/validation.js';

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
}

const DEFAULT_EVENT_RETENTION_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const BODY_LIMIT = 256 * 1024;
/** Health checks share one database ping per second, so a monitor polling hard can't load the database. */
const HEALTH_PING_MAX_AGE_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    domainEvents: DomainEventBus;
    io: AppIo;
    replay: ReplayService;
    /** Timed work (reminders, held e-mails, retention): polled every JOB_POLL_MS; tests run it by hand. */
    jobs: JobRunner;
    /** Work that follows a commit without holding its answer (the teacher's submissions batch). */
    afterCommit: { settled(): Promise<void> };
  }
}

/** Builds the whole app (API, docs, static client) without listening, so tests and main.ts share it. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const client = builtClient(config);
  // The built page's own inline scripts (the early session check, the shell preload) are allowed by their hash.
  const inlineScripts = client ? inlineScriptsOf(client.page) : [];
  const headers = securityHeaders(securityHeaderOptions(config.appOrigin, inlineScripts));
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

  const database =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') }));
  if (!options.database) app.addHook('onClose', () => database.close());
  if (!options.skipMigrations) await database.migrate();
  app.decorate('database', database);
  const domainEvents = new DomainEventBus();
  app.decorate('domainEvents', domainEvents);
  app.decorateRequest('caller', null);

  const clock = options.clock ?? systemClock;
  const mailer =
    options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  app.addHook('onClose', async () => mailer.close());

  const secure = config.appOrigin.startsWith('https:');
  installSecurityHeaders(app, headers);

  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    redis.on('error', (err) => app.log.warn({ err }, 'redis error'));
    app.addHook('onClose', async () => void redis?.disconnect());
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'classwave-rl:', skipOnError: true } : {}),
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

  const tokens = createAccessTokens(config.jwtSecret);
  const auth = createAuthService({
    db: database.db,
    clock,
    mailer,
    tokens,
    events: domainEvents,
    settings: {
      ...defaultAuthSettings,
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      ...options.auth,
      appOrigin: config.appOrigin,
      teacherSignup: config.teacherSignup,
      refreshKey: createHash('sha256').update(`refresh:${config.jwtSecret}`).digest('base64url'),
    },
  });
  const rateLimits = { ...scalePerIp(defaultRateLimits, config.perIpLimitScale), ...options.rateLimits };
  const db = database.db;
  // Every change's notifications are derived in its own transaction (DESIGN §14).
  const outbox = createOutbox({ db, bus: domainEvents, clock, derive: createDeriver(clock) });
  const jobRunner = createJobRunner({
    db,
    outbox,
    clock,
    mailer,
    appOrigin: config.appOrigin,
    log: app.log,
    // Each feature's timed work beside the notifications' own: a Return's undo window (DESIGN §13).
    handlers: { ...defaultJobHandlers, ...returnJobHandlers },
  });
  app.decorate('jobs', jobRunner);
  outbox.runSoon = jobRunner.runNow;
  const batcher = createSubmissionBatcher({ outbox, clock, log: app.log });
  app.decorate('afterCommit', { settled: batcher.settled });
  // Added after the database's own close hook, so it runs before it (close hooks run last first).
  app.addHook('onClose', () => batcher.settled());
  const wakeUps = createJobWakeUps({
    clock,
    runDue: () => jobRunner.runDue(),
    enabled: config.jobPollMs > 0,
    log: app.log,
  });
  app.addHook('preClose', () => wakeUps.close());
  const notifications = createNotificationService({ db, clock, outbox, appOrigin: config.appOrigin });
  const assignmentLists = prepareAssignmentLists(
    database,
    clock,
    createAssignmentReadModel({
      database,
      clock,
      bus: domainEvents,
      // Own parts only where this process commits every write (no workers, no Redis-linked peers).
      cacheOwn: !config.redisUrl && !cluster.isWorker,
    }),
  );
  const replay = createReplayService({
    db,
    clock,
    retentionMs: options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS,
  });
  app.decorate('replay', replay);

  const realtime = createRealtime({
    httpServer: app.server,
    appOrigin: config.appOrigin,
    redisUrl: config.redisUrl,
    clusterWorker: cluster.isWorker,
    auth,
    bus: domainEvents,
    replay,
    db,
    clock,
    log: app.log,
    ...(options.chatDelayMs ? { chatDelayMs: options.chatDelayMs } : {}),
  });
  app.decorate('io', realtime.io);
  const panels = createPanelService({
    db,
    clock,
    outbox,
    presenceOn: (courseId, assignmentId) => presenceOn(realtime.io, courseId, assignmentId),
    isWatched: (assignmentId) => panelWatch.isWatched(assignmentId),
    log: app.log,
  });
  const panelWatch = installPanelWatch(realtime.io, {
    owns: (caller, assignmentId) => panels.owns(caller, assignmentId),
    otherProcesses: realtime.otherProcesses,
  });
  installPresence(realtime.io, { courseOf: panels.courseFor, changed: panels.changed });
  const unfollowDrafts = panels.followDrafts(domainEvents);
  app.addHook('onClose', async () => {
    unfollowDrafts();
    panelWatch.close();
    panels.close();
  });
  app.addHook('preClose', async () => realtime.disconnectAll());
  app.addHook('onClose', () => realtime.close());
  const pruner = setInterval(
    () => void replay.prune().catch((err) => app.log.warn({ err }, 'event pruning failed')),
    PRUNE_EVERY_MS,
  );
  pruner.unref();
  app.addHook('onClose', async () => clearInterval(pruner));
  // Polling starts once the app is ready and stops before the database closes.
  app.addHook('onReady', () => jobRunner.start(config.jobPollMs));
  app.addHook('preClose', () => jobRunner.stop());

  const databaseUp = recentPing(() => database.ping(), HEALTH_PING_MAX_AGE_MS);
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
        database: { status: up ? 'up' : 'down', kind: database.kind },
      });
    },
  );
  await app.register(
    async (api) => {
      // CORS only where a page of APP_ORIGIN calls with credentials: the API. The client's files and
      // the docs are same-origin loads that need no CORS hook on every request.
      // A list, not a string: a foreign origin then gets no Access-Control-Allow-Origin at all.
      await api.register(cors, { origin: [config.appOrigin], credentials: true });
      // Cookies are read and written only by the auth routes (the refresh token's cookie is scoped
      // to /api/auth), so only they pay for parsing the Cookie header.
      await api.register(
        async (authScope) => {
          await authScope.register(cookie);
          await authScope.register(authRoutes, {
            auth,
            recovery: createRecoveryService({
              db,
              clock,
              mailer,
              events: domainEvents,
              appOrigin: config.appOrigin,
              log: app.log,
            }),
            teacherSignup: config.teacherSignup,
            secureCookies: secure,
            rateLimits,
            liveHead: replay.head,
          });
        },
        { prefix: '/auth' },
      );
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', createAuthenticateHook(auth));
        await signedIn.register(meRoutes, { auth });
        await signedIn.register(accountRoutes, {
          account: createAccountService({
            db,
            clock,
            outbox,
            events: domainEvents,
            sessionIdleSeconds: defaultAuthSettings.refreshTokenTtlSeconds,
          }),
          passwordLimit: rateLimits.password,
        });
        await signedIn.register(courseRoutes, {
          courses: createCourseService({ db, database, outbox, lists: assignmentLists }),
        });
        await signedIn.register(classRoutes, {
          classes: createClassService({
            db,
            clock,
            outbox,
            bus: domainEvents,
            limiter: createWrongCodeLimiter({
              redis,
              limits: {
                ...scaleWrongCodeLimits(defaultWrongCodeLimits, config.perIpLimitScale),
                ...options.joinLimits,
              },
              now: () => clock.now().getTime(),
              onError: (err) => app.log.warn({ err }, 'join-code limits: redis error'),
            }),
          }),
        });
        await signedIn.register(assignmentRoutes, {
          assignments: createAssignmentService({
            db,
            clock,
            outbox,
            lists: assignmentLists,
          }),
        });
        await signedIn.register(submissionRoutes, {
          submissions: createSubmissionService({
            db,
            database,
            clock,
            outbox,
            onSubmitted: (assignmentId, submissionId) => {
              panels.changed(assignmentId);
              return batcher.submitted(assignmentId, submissionId);
            },
          }),
          drafts: createDraftService({ db, clock, outbox, onWithdrawn: panels.changed }),
        });
        await signedIn.register(gradingRoutes, {
          grading: createGradingService({
            db,
            clock,
            outbox,
            wakeUps,
            ...(options.returnUndoMs !== undefined ? { undoWindowMs: options.returnUndoMs } : {}),
          }),
          panels,
        });
        await signedIn.register(dashboardRoutes, { dashboard: createDashboardService({ database, clock }) });
        await signedIn.register(replayRoutes, { replay });
        await signedIn.register(notificationRoutes, { notifications });
      });
      await api.register(calendarFeedRoutes, { notifications });
    },
    { prefix: '/api' },
  );

  serveClient(app, client);
  return app;
}

/** The built client (its directory and page), or undefined when it has not been built. */
function builtClient(config: Config): { dir: string; page: string } | undefined {
  const dir = config.clientDir ?? path.resolve(import.meta.dirname, '../../client/dist');
  const page = path.join(dir, 'index.html');
  return existsSync(page) ? { dir, page: readFileSync(page, 'utf8') } : undefined;
}

/** Serves the built client, with index.html for client routes (never for /api or /socket.io). */
function serveClient(app: FastifyInstance, client: { dir: string } | undefined): void {
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

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
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
