import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { RETURN_UNDO_SECONDS } from '@classwave/shared';
import { oidcConfig, type OidcConfig } from './auth/oidc/config.js';

/** Everything the server reads from its environment, parsed and checked once at start-up. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The public URL of the app: e-mail links, the redirect allow-list, CORS and the socket origin. */
  appOrigin: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How many proxy hops to trust for the client address; false trusts none. */
  trustProxy: number | false;
  /** Where the built client lives; served with an SPA fallback when present. */
  clientDir: string | undefined;
  /**
   * WORKERS: how many server processes share the port (node:cluster), resolved from a number or
   * `auto` (one per core). Undefined when unset. Needs DATABASE_URL: PGlite is single-process.
   */
  workers: number | undefined;
  /** Who may sign up as a teacher (TEACHER_SIGNUP, TEACHER_INVITE_CODE). */
  teacherSignup: TeacherSignupPolicy;
  /** JOB_POLL_MS: how often each process looks for due timed jobs (reminders, held e-mails); 0 turns polling off. */
  jobPollMs: number;
  /**
   * ACCESS_TOKEN_TTL: seconds an access token lives (DESIGN §6: short-lived; 15 minutes). Shorter
   * lets a test watch sessions expire and refresh in seconds.
   */
  accessTokenTtlSeconds: number;
  /**
   * RETURN_UNDO_SECONDS: how long a Return with undo waits before sending (DESIGN §13: 10 s). A test
   * setting, refused unless NODE_ENV=test: the end-to-end suite shortens it so its journeys do not
   * wait out 10 s each time; no longer than 10, the countdown the teacher's tab shows.
   */
  returnUndoSeconds: number;
  /**
   * PER_IP_LIMIT_SCALE: multiplies the per-address limits (sign-up, sign-in, recovery, refresh,
   * wrong join codes). A school's students often share one address (NAT); 1 keeps the defaults.
   */
  perIpLimitScale: number;
  /** Where attachments' bytes live (DESIGN §18): a folder under DATA_DIR, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Attachments' limits (DESIGN §18): bytes a file, files a submission, bytes a user. */
  uploads: { maxBytes: number; maxFiles: number; quotaBytes: number };
  /** The school's OpenID Connect provider (DESIGN §20: OIDC_*); undefined when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  /** PASSWORD_SIGNIN: `off` leaves only the school's sign-in (the password routes answer 403). */
  passwordSignin: boolean;
}

/**
 * STORAGE_URL unset: `disk`, files under DATA_DIR/files. `s3://bucket` with S3_ENDPOINT (any
 * S3-compatible store; AWS when unset), S3_REGION and the S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY pair.
 */
export type StorageConfig =
  | { kind: 'disk'; directory: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | undefined;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

/** Who may create a teacher account: anyone, addresses at some e-mail domains, or holders of an invite code. */
export type TeacherSignupPolicy =
  { mode: 'open' } | { mode: 'domains'; domains: string[] } | { mode: 'code'; code: string };

const INVITE_CODE_MIN_LENGTH = 8;

/** A configuration problem; its message names the variable so the operator knows what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** WORKERS: `auto` is one process per core; more than 64 is surely a typo. */
function workers(env: Env): number | undefined {
  const raw = env.WORKERS;
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'auto') return availableParallelism();
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64)
    throw new ConfigError(`WORKERS must be auto or a whole number from 1 to 64 (got "${raw}")`);
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`,
    );
  }
  return raw;
}

function origin(env: Env, name: string, fallback: string): string {
  const raw = url(env, name, ['http:', 'https:']) ?? fallback;
  const parsed = new URL(raw);
  if (parsed.pathname !== '/' || parsed.search || parsed.hash) {
    throw new ConfigError(
      `${name} must be an origin such as https://school.example, without a path (got "${raw}")`,
    );
  }
  return parsed.origin;
}

function trustProxy(env: Env): number | false {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  return integer(env, 'TRUST_PROXY', 0, 1, 10);
}

/** Reads the JWT secret from the environment, or from (or into) DATA_DIR outside production. */
function jwtSecret(env: Env, nodeEnv: Config['nodeEnv'], dataDir: string): string {
  const raw = env.JWT_SECRET;
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
    return raw;
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('JWT_SECRET is required when NODE_ENV=production (at least 32 random characters)');
  }
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/**
 * TEACHER_SIGNUP: `open` (the development default), `domains:<a.edu,b.edu>` or `code` (with
 * TEACHER_INVITE_CODE). In production the default is `code`: a school's server on the internet
 * should not let anyone who finds it grade its students, and an invite code works for any school
 * without knowing its domains up front, so production refuses to start without one.
 */
function teacherSignup(env: Env, nodeEnv: Config['nodeEnv']): TeacherSignupPolicy {
  const raw = (env.TEACHER_SIGNUP ?? '').trim();
  const mode = raw === '' ? (nodeEnv === 'production' ? 'code' : 'open') : raw;
  if (mode === 'open') return { mode: 'open' };
  if (mode === 'code') {
    const code = (env.TEACHER_INVITE_CODE ?? '').trim();
    if (code.length < INVITE_CODE_MIN_LENGTH)
      throw new ConfigError(
        `TEACHER_INVITE_CODE must be set to at least ${INVITE_CODE_MIN_LENGTH} characters when TEACHER_SIGNUP is code` +
          (raw === ''
            ? ' (the default when NODE_ENV=production; or set TEACHER_SIGNUP=open or domains:<list>)'
            : ''),
      );
    return { mode: 'code', code };
  }
  if (mode.startsWith('domains:')) {
    const domains = mode
      .slice('domains:'.length)
      .split(',')
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter((d) => d !== '');
    const bad = domains.find((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d));
    if (domains.length === 0 || bad !== undefined)
      throw new ConfigError(
        `TEACHER_SIGNUP must list e-mail domains such as domains:school.example,staff.school.example (got "${raw}")`,
      );
    return { mode: 'domains', domains };
  }
  throw new ConfigError(`TEACHER_SIGNUP must be open, domains:<comma list> or code (got "${raw}")`);
}

const MB = 1024 * 1024;

function storage(env: Env, dataDir: string): StorageConfig {
  const raw = url(env, 'STORAGE_URL', ['s3:']);
  if (raw === undefined) return { kind: 'disk', directory: path.join(dataDir, 'files') };
  const parsed = new URL(raw);
  if (
    !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(parsed.hostname) ||
    (parsed.pathname !== '' && parsed.pathname !== '/')
  )
    throw new ConfigError(`STORAGE_URL must be s3://<bucket name> with no path (got "${raw}")`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{2,32}$/.test(region))
    throw new ConfigError(`S3_REGION must be a region name such as eu-west-1 (got "${region}")`);
  return {
    kind: 's3',
    bucket: parsed.hostname,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

/** RETURN_UNDO_SECONDS: a shorter undo window, for tests only (a school's teachers get DESIGN §13's). */
function returnUndoSeconds(env: Env, nodeEnv: Config['nodeEnv']): number {
  if (env.RETURN_UNDO_SECONDS && nodeEnv !== 'test')
    throw new ConfigError(
      `RETURN_UNDO_SECONDS is a test setting and needs NODE_ENV=test (got NODE_ENV=${nodeEnv}); the undo window is ${RETURN_UNDO_SECONDS} s`,
    );
  return integer(env, 'RETURN_UNDO_SECONDS', RETURN_UNDO_SECONDS, 1, RETURN_UNDO_SECONDS);
}

/** PASSWORD_SIGNIN=off only makes sense when there is another way in. */
function passwordSignin(env: Env, oidc: OidcConfig | undefined): boolean {
  const on = oneOf(env, 'PASSWORD_SIGNIN', ['on', 'off'], 'on') === 'on';
  if (!on && !oidc)
    throw new ConfigError('PASSWORD_SIGNIN=off needs OIDC_ISSUER: nobody could sign in without either');
  return on;
}

const configFail = (message: string): never => {
  throw new ConfigError(message);
};

/**
 * Parses the environment into a Config. Throws a ConfigError naming the first bad variable.
 * `overrides` lets tests and tools replace single values without touching process.env.
 */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const oidc = oidcConfig(env, nodeEnv === 'production', configFail);
  const config: Config = {
    nodeEnv,
    port,
    host: env.HOST || '0.0.0.0',
    appOrigin: origin(env, 'APP_ORIGIN', `http://localhost:${port}`),
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'Classwave <no-reply@classwave.local>',
    jwtSecret: overrides.jwtSecret ?? jwtSecret(env, nodeEnv, dataDir),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustProxy(env),
    clientDir: env.CLIENT_DIR,
    workers: workers(env),
    teacherSignup: teacherSignup(env, nodeEnv),
    jobPollMs: integer(env, 'JOB_POLL_MS', 2000, 0, 3_600_000),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL', 900, 10, 86_400),
    returnUndoSeconds: returnUndoSeconds(env, nodeEnv),
    perIpLimitScale: integer(env, 'PER_IP_LIMIT_SCALE', 1, 1, 1000),
    storage: storage(env, dataDir),
    uploads: {
      maxBytes: integer(env, 'UPLOAD_MAX_BYTES', 50 * MB, 1, 5 * 1024 * MB),
      maxFiles: integer(env, 'UPLOAD_MAX_FILES', 20, 1, 1000),
      quotaBytes: integer(env, 'UPLOAD_QUOTA_BYTES', 1024 * MB, 1, 1024 * 1024 * MB),
    },
    oidc,
    passwordSignin: passwordSignin(env, oidc),
  };
  return { ...config, ...overrides };
}
