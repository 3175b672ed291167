import type { Redis } from 'ioredis';
import { ErrorCode, JOIN_ATTEMPTS_PER_ACCOUNT } from '@classwave/shared';
import { AppError } from '../http/errors.js';

/**
 * Wrong join codes (DESIGN §11): 5 per account in 10 minutes, and a loose budget per IP address,
 * since a whole class often shares one school address (40 students with a few typos each stay far
 * below it). Only wrong codes count: a class joining with the right code is never slowed down.
 * With Redis the counts are shared by every server process; without it they live in this process.
 */
export interface WrongCodeLimits {
  account: { max: number; windowMs: number };
  ip: { max: number; windowMs: number };
}
export const defaultWrongCodeLimits: WrongCodeLimits = {
  account: JOIN_ATTEMPTS_PER_ACCOUNT,
  ip: { max: 200, windowMs: 10 * 60 * 1000 },
};

/** The limits with the per-address budget raised `scale` times (PER_IP_LIMIT_SCALE). */
export const scaleWrongCodeLimits = (limits: WrongCodeLimits, scale: number): WrongCodeLimits => ({
  ...limits,
  ip: { ...limits.ip, max: limits.ip.max * scale },
});

interface Counter {
  /** Milliseconds until the key's window ends, when it has reached `max`; otherwise null. */
  blockedFor(key: string, max: number): Promise<number | null>;
  hit(key: string, windowMs: number): Promise<void>;
}

// Fixed window: the first wrong code starts it, and it ends windowMs later.
const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

function redisCounter(redis: Redis, onError: (err: unknown) => void): Counter {
  return {
    async blockedFor(key, max) {
      try {
        const [[, count], [, ttl]] = (await redis.multi().get(key).pttl(key).exec()) as [
          [unknown, string | null],
          [unknown, number],
        ];
        return Number(count ?? 0) >= max && ttl > 0 ? ttl : null;
      } catch (err) {
        // Redis down: let people join rather than lock a class out (as the other rate limits do).
        onError(err);
        return null;
      }
    },
    async hit(key, windowMs) {
      try {
        await redis.eval(HIT_SCRIPT, 1, key, windowMs);
      } catch (err) {
        onError(err);
      }
    },
  };
}

function memoryCounter(now: () => number): Counter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let lastSweep = 0;
  const current = (key: string) => {
    const t = now();
    if (t - lastSweep > 60_000) {
      lastSweep = t;
      for (const [k, w] of windows) if (w.endsAt <= t) windows.delete(k);
    }
    const w = windows.get(key);
    return w && w.endsAt > t ? w : undefined;
  };
  return {
    async blockedFor(key, max) {
      const w = current(key);
      return w && w.count >= max ? w.endsAt - now() : null;
    },
    async hit(key, windowMs) {
      const w = current(key);
      if (w) w.count++;
      else windows.set(key, { count: 1, endsAt: now() + windowMs });
    },
  };
}

export function createWrongCodeLimiter({
  redis,
  limits = defaultWrongCodeLimits,
  now = Date.now,
  onError = () => {},
}: {
  redis?: Redis | undefined;
  limits?: WrongCodeLimits;
  now?: () => number;
  onError?: (err: unknown) => void;
}) {
  const counter = redis ? redisCounter(redis, onError) : memoryCounter(now);
  const keys = (who: { userId: string; ip: string }) => ({
    account: `classwave-join:account:${who.userId}`,
    ip: `classwave-join:ip:${who.ip}`,
  });
  return {
    /** Throws 429 with Retry-After when this account or address has tried too many wrong codes. */
    async check(who: { userId: string; ip: string }): Promise<void> {
      const k = keys(who);
      const waits = await Promise.all([
        counter.blockedFor(k.account, limits.account.max),
        counter.blockedFor(k.ip, limits.ip.max),
      ]);
      const waitMs = Math.max(...waits.map((w) => w ?? 0));
      if (waitMs <= 0) return;
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError(
        429,
        ErrorCode.rateLimited,
        `Too many wrong join codes. Please check the code with your teacher and try again in ${seconds} seconds.`,
        { 'retry-after': String(seconds) },
      );
    },
    /** Counts one wrong code against the account and the address. */
    async wrong(who: { userId: string; ip: string }): Promise<void> {
      const k = keys(who);
      await Promise.all([
        counter.hit(k.account, limits.account.windowMs),
        counter.hit(k.ip, limits.ip.windowMs),
      ]);
    },
  };
}
export type WrongCodeLimiter = ReturnType<typeof createWrongCodeLimiter>;
