import type { Db, Tx } from '../db/client.js';
import type { DomainEventBus } from '../events.js';
import { scheduleJob } from '../jobs/schedule.js';

/**
 * "An account's address is verified" (a mailed link followed, or the school's provider vouching for
 * it): work other rooms do then, such as the roster's enrolment of invited students (DESIGN §20).
 * It is a job written in the verifying transaction — the crash-safe net — that the bus's
 * `account:verified` subscribers run at once, the answer waiting for them.
 */
export const ACCOUNT_VERIFIED_JOB = 'account:verified';

/** One per account: a second verification finds the job done and schedules it again. */
export const accountVerifiedJobKey = (userId: string) => `account-verified:${userId}`;

/** Records, in the verifying transaction, that the account's address is now verified. */
export function scheduleAccountVerified(tx: Db | Tx, userId: string, now: Date): Promise<void> {
  return scheduleJob(tx, {
    kind: ACCOUNT_VERIFIED_JOB,
    key: accountVerifiedJobKey(userId),
    runAt: now,
    payload: { userId },
  });
}

/** After the commit: lets the subscribers do their part before the answer goes out. */
export async function announceAccountVerified(bus: DomainEventBus, userId: string): Promise<void> {
  const held: Promise<unknown>[] = [];
  bus.emit('account:verified', { userId }, { hold: (work) => held.push(work) });
  await Promise.allSettled(held);
}
