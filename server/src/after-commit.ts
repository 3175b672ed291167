/**
 * Work a bus subscriber starts after a commit without holding the writer's answer (the teacher's
 * submissions batch, say). It is tracked so that the app waits for it before closing its database,
 * and a test can wait for it before reading what it wrote. Its failures are its own to log: here
 * they only end the wait.
 */
export function createAfterCommit() {
  const running = new Set<Promise<unknown>>();
  return {
    track(work: Promise<unknown>): void {
      const tracked: Promise<unknown> = work.catch(() => {}).finally(() => running.delete(tracked));
      running.add(tracked);
    },
    /** Resolves once nothing tracked is running, including work started while waiting. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
export type AfterCommit = ReturnType<typeof createAfterCommit>;
