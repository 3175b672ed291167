import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';

/**
 * Runs the job runner when a job scheduled by this process falls due (a Return with undo, DESIGN
 * §13): polling alone (JOB_POLL_MS, 2 s by default) would add up to a poll's wait to it. Another
 * process's poll, or this one's after a restart, still finds the row if this timer never fires.
 * Off when polling is off (tests run jobs by hand).
 */
export function createWakeUps({
  clock,
  runDue,
  enabled,
  log,
}: {
  clock: Clock;
  runDue: () => Promise<unknown>;
  enabled: boolean;
  log: FastifyBaseLogger;
}) {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let closed = false;
  return {
    /** Runs due jobs just after `when`. */
    at(when: Date): void {
      if (!enabled || closed) return;
      // A few ms past: a timer fires no earlier than asked, and the row is due at `when` itself.
      const delay = Math.max(0, when.getTime() - clock.now().getTime()) + 5;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (closed) return;
        const run = runDue()
          .catch((err: unknown) => log.warn({ err }, 'scheduled jobs could not be run'))
          .finally(() => running.delete(run));
        running.add(run);
      }, delay);
      timer.unref();
      timers.add(timer);
    },
    /** Stops the timers and waits for a run in progress. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}
