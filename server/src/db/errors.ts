/** PostgreSQL error codes the services react to. */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

/** The PostgreSQL error code, whether the driver put it on the error or on its cause. */
export function pgCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * node-postgres's own errors for a connection that was lost or could not be had (PostgreSQL
 * restarting, say) carry no code, only these messages. A query on a client that lost its
 * connection, and the ROLLBACK after it, fail with them.
 */
const CONNECTION_LOST = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);

/** True for the driver's connection-lost errors (on the error or on its cause, as Drizzle wraps them). */
export function isConnectionLost(error: unknown): boolean {
  const e = error as { message?: unknown; cause?: { message?: unknown } } | null;
  return [e?.message, e?.cause?.message].some((m) => typeof m === 'string' && CONNECTION_LOST.has(m));
}
