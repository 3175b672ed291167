import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@classwave/shared';
import { AppError } from '../http/errors.js';

export interface Limit {
  max: number;
  timeWindow: number;
}

/** Every auth budget: per address or account first, then a per-IP budget sized for a class behind one NAT. */
export interface RateLimits {
  /** Sign-ups per e-mail address. */
  signUp: Limit;
  /** Sign-ups per IP: a whole class (40) signs up in one lesson from one school address. */
  signUpPerIp: Limit;
  /** Sign-in attempts per account (e-mail): stops guessing one password without touching the others. */
  signIn: Limit;
  /** Sign-ins per IP: 40 first sign-ins plus typos, then a cap on spraying many accounts. */
  signInPerIp: Limit;
  /** Verification resends per address and IP. */
  resend: Limit;
  /** Password-recovery mails per address. */
  recover: Limit;
  recoverPerIp: Limit;
  /** Refreshes per IP: every open tab refreshes every few minutes. */
  refresh: Limit;
  /** Current-password checks (change password, delete account) per account. */
  password: Limit;
}

const MINUTE = 60_000;
export const defaultRateLimits: RateLimits = {
  signUp: { max: 5, timeWindow: 10 * MINUTE },
  signUpPerIp: { max: 60, timeWindow: 10 * MINUTE },
  signIn: { max: 5, timeWindow: 10 * MINUTE },
  signInPerIp: { max: 100, timeWindow: 10 * MINUTE },
  resend: { max: 5, timeWindow: 10 * MINUTE },
  recover: { max: 3, timeWindow: 10 * MINUTE },
  recoverPerIp: { max: 30, timeWindow: 10 * MINUTE },
  refresh: { max: 120, timeWindow: MINUTE },
  password: { max: 5, timeWindow: 10 * MINUTE },
};

/** The limits with every per-address one (and refresh, which is per address) raised `scale` times. */
export function scalePerIp(limits: RateLimits, scale: number): RateLimits {
  const times = (limit: Limit): Limit => ({ ...limit, max: limit.max * scale });
  return {
    ...limits,
    signUpPerIp: times(limits.signUpPerIp),
    signInPerIp: times(limits.signInPerIp),
    recoverPerIp: times(limits.recoverPerIp),
    refresh: times(limits.refresh),
  };
}

/** "Try again in 9 minutes": people plan in minutes; seconds only under a minute. */
export function tryAgainMessage(ttlMs: number): string {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  if (seconds < 60)
    return `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The e-mail of a JSON body, normalised, as a rate-limit key (empty when absent). */
export const emailKey = (request: FastifyRequest): string => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
};

export interface LimitRule extends Limit {
  /** Names the budget, so two rules never share a counter. */
  name: string;
  key: (request: FastifyRequest) => string;
}

/**
 * A preHandler (it runs after the body is parsed and the caller known) that checks each rule in
 * order and answers 429 with Retry-After at the first one exhausted. @fastify/rate-limit runs one
 * limiter per request, so several budgets on one route go through its `createRateLimit` instead.
 */
export function limitBy(app: FastifyInstance, rules: LimitRule[]) {
  const limiters = rules.map((rule) => ({
    rule,
    check: app.createRateLimit({
      max: rule.max,
      timeWindow: rule.timeWindow,
      keyGenerator: (request) => `${rule.name}|${rule.key(request)}`,
    }),
  }));
  return async function rateLimit(request: FastifyRequest): Promise<void> {
    for (const { check } of limiters) {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded)
        throw new AppError(429, ErrorCode.rateLimited, tryAgainMessage(result.ttl), {
          'retry-after': String(result.ttlInSeconds),
        });
    }
  };
}
