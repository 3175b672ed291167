import { and, eq, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { refreshTokens, sessions } from '../db/schema.js';

/**
 * Revokes every live session of a user (but `except`, the caller's own) and their refresh tokens,
 * inside the caller's transaction. Returns the ended ids: after commit the caller emits
 * `session:ended` for each, which forgets them in every process and closes their sockets.
 */
export async function revokeUserSessions(
  tx: Tx | Db,
  input: { userId: string; except?: string; only?: string; reason: string; now: Date },
): Promise<string[]> {
  const conditions: SQL[] = [eq(sessions.userId, input.userId), isNull(sessions.revokedAt)];
  if (input.except) conditions.push(ne(sessions.id, input.except));
  if (input.only) conditions.push(eq(sessions.id, input.only));
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: input.now, revokedReason: input.reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  const ids = ended.map((s) => s.id);
  if (ids.length > 0)
    await tx
      .update(refreshTokens)
      .set({ revokedAt: input.now })
      .where(and(inArray(refreshTokens.sessionId, ids), isNull(refreshTokens.revokedAt)));
  return ids;
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Windows" from a User-Agent: enough to tell one's own devices apart, no library needed. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
