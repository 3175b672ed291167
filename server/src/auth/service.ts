import { and, eq, inArray, isNull } from 'drizzle-orm';
import { ErrorCode, type Profile, type Session } from '@classwave/shared';
import type { Clock } from '../clock.js';
import { batchLoader } from '../db/batch-loader.js';
import type { Db, Tx } from '../db/client.js';
import { profiles, refreshTokens, sessions, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { AppError, unauthorized } from '../http/errors.js';
import type { Caller } from './caller.js';
import { deriveChildToken, hashToken, randomToken } from './crypto.js';
import type { Mailer } from './mailer.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { createSessionCache } from './session-cache.js';
import type { AuthSettings } from './settings.js';
import { createSignupService } from './signup.js';
import type { AccessTokens } from './tokens.js';
import { addSeconds, byEmail, toUser, type UserRow } from './users.js';

export { defaultAuthSettings, type AuthSettings } from './settings.js';
export { checkTeacherSignup } from './signup.js';

export interface IssuedSession {
  session: Session;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** How long a session read as live is trusted without asking the database again (see session-cache.ts). */
const SESSION_CACHE_TTL_MS = 10_000;
const SESSION_CACHE_MAX = 100_000;

/** A session's last_seen_at is written at most this often (on refresh), never per request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
const USER_AGENT_MAX_LENGTH = 512;
/** Hops through a chain of rotations tolerated inside the grace period. */
const MAX_GRACE_HOPS = 5;

/**
 * Sessions (DESIGN §6): sign-in, the rotating refresh token, sign-out, and the check every request
 * and socket makes of its access token; with sign-up (signup.ts), the auth routes' one service.
 */
export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  tokens: AccessTokens;
  bus: DomainEventBus;
  settings: AuthSettings;
}) {
  const { db, clock, mailer, tokens, bus, settings } = deps;
  const liveSessions = createSessionCache({
    ttlMs: SESSION_CACHE_TTL_MS,
    max: SESSION_CACHE_MAX,
    now: () => clock.now().getTime(),
  });
  // Every way a session ends goes through this event; the cache forgets it first.
  bus.prependListener('session:ended', ({ sessionId }) => liveSessions.end(sessionId));
  /** Sessions not in the cache, looked up together when many arrive at once (a reconnection storm). */
  const sessionById = batchLoader(async (ids: string[]) => {
    const rows = await db
      .select({
        id: sessions.id,
        userId: sessions.userId,
        revokedAt: sessions.revokedAt,
        role: profiles.role,
      })
      .from(sessions)
      .innerJoin(profiles, eq(profiles.id, sessions.userId))
      .where(inArray(sessions.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  });

  function buildSession(user: UserRow, sessionId: string): Session {
    const access = tokens.sign({
      userId: user.id,
      sessionId,
      now: clock.now(),
      ttlSeconds: settings.accessTokenTtlSeconds,
    });
    return {
      accessToken: access.token,
      tokenType: 'bearer',
      expiresIn: settings.accessTokenTtlSeconds,
      expiresAt: access.expiresAt,
      user: toUser(user),
    };
  }

  async function issueSession(
    tx: Tx,
    user: UserRow,
    sessionId: string,
    refreshToken: string,
    parentId: string | null,
  ): Promise<IssuedSession> {
    const now = clock.now();
    const refreshExpiresAt = addSeconds(now, settings.refreshTokenTtlSeconds);
    await tx.insert(refreshTokens).values({
      tokenHash: hashToken(refreshToken),
      sessionId,
      userId: user.id,
      parentId,
      createdAt: now,
      expiresAt: refreshExpiresAt,
    });
    return { session: buildSession(user, sessionId), refreshToken, refreshExpiresAt };
  }

  async function revokeSession(tx: Tx | Db, sessionId: string, reason: string): Promise<boolean> {
    const now = clock.now();
    const revoked = await tx
      .update(sessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
    return revoked.length > 0;
  }

  /**
   * A new session for a user who proved who they are (a password, or the school's provider): the
   * same session, refresh token and cookie whichever way they came in.
   */
  function startSession(user: UserRow, userAgent: string | undefined): Promise<IssuedSession> {
    return db.transaction(async (tx) => {
      const [session] = await tx
        .insert(sessions)
        .values({
          userId: user.id,
          createdAt: clock.now(),
          lastSeenAt: clock.now(),
          userAgent: userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        })
        .returning({ id: sessions.id });
      return issueSession(tx, user, session!.id, randomToken(), null);
    });
  }

  return {
    ...createSignupService({ db, clock, mailer, settings, bus }),

    async signIn(input: {
      email: string;
      password: string;
      userAgent?: string | undefined;
    }): Promise<IssuedSession> {
      const [user] = await db.select().from(users).where(byEmail(input.email.trim()));
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!user || !ok) throw new AppError(400, ErrorCode.invalidCredentials, 'Invalid login credentials');
      if (!user.emailConfirmedAt) throw new AppError(403, ErrorCode.emailNotConfirmed, 'Email not confirmed');
      return startSession(user, input.userAgent);
    },

    startSession,

    /** Exchanges a refresh token for a new session and its child token (see deriveChildToken). */
    async refresh(presented: string | undefined): Promise<IssuedSession> {
      if (!presented) throw unauthorized('You are not signed in.', ErrorCode.refreshTokenMissing);
      const invalid = () =>
        unauthorized('Your session has ended. Please sign in again.', ErrorCode.refreshTokenInvalid);
      const now = clock.now();
      let reused: { sessionId: string; userId: string } | undefined;
      const result = await db.transaction(async (tx) => {
        let token = presented;
        for (let hop = 0; hop <= MAX_GRACE_HOPS; hop++) {
          const [row] = await tx
            .select({ token: refreshTokens, session: sessions, user: users })
            .from(refreshTokens)
            .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
            .innerJoin(users, eq(users.id, refreshTokens.userId))
            .where(eq(refreshTokens.tokenHash, hashToken(token)))
            .for('update', { of: refreshTokens });
          if (!row || row.token.revokedAt || row.session.revokedAt) return undefined;
          if (row.token.expiresAt.getTime() <= now.getTime()) return undefined;
          if (!row.token.rotatedAt) {
            await tx.update(refreshTokens).set({ rotatedAt: now }).where(eq(refreshTokens.id, row.token.id));
            if (now.getTime() - row.session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS)
              await tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
            return issueSession(
              tx,
              row.user,
              row.session.id,
              deriveChildToken(settings.refreshKey, token),
              row.token.id,
            );
          }
          const sinceRotation = (now.getTime() - row.token.rotatedAt.getTime()) / 1000;
          if (sinceRotation > settings.refreshReuseGraceSeconds || hop === MAX_GRACE_HOPS) {
            // A token used again long after it was replaced: someone else may hold it. End the session.
            await revokeSession(tx, row.session.id, 'refresh_token_reused');
            reused = { sessionId: row.session.id, userId: row.user.id };
            return undefined;
          }
          // Another tab rotated this token a moment ago: follow the chain to the token that is current now.
          token = deriveChildToken(settings.refreshKey, token);
          const [child] = await tx
            .select({
              rotatedAt: refreshTokens.rotatedAt,
              revokedAt: refreshTokens.revokedAt,
              expiresAt: refreshTokens.expiresAt,
            })
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, hashToken(token)));
          if (!child || child.revokedAt) return undefined;
          if (!child.rotatedAt) {
            return {
              session: buildSession(row.user, row.session.id),
              refreshToken: token,
              refreshExpiresAt: child.expiresAt,
            };
          }
        }
        return undefined;
      });
      if (reused) bus.emit('session:ended', { ...reused, reason: 'refresh_token_reused' });
      if (!result) throw invalid();
      return result;
    },

    /** Ends a session, found by its access token's session id or by its refresh token. */
    async signOut(input: {
      sessionId?: string | undefined;
      refreshToken?: string | undefined;
    }): Promise<void> {
      let sessionId = input.sessionId;
      if (!sessionId && input.refreshToken) {
        const [row] = await db
          .select({ sessionId: refreshTokens.sessionId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(input.refreshToken)));
        sessionId = row?.sessionId;
      }
      if (!sessionId) return;
      const [session] = await db
        .select({ userId: sessions.userId })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      if (!session) return;
      liveSessions.end(sessionId); // no request may start trusting it while it is being revoked
      const ended = await db.transaction((tx) => revokeSession(tx, sessionId, 'signed_out'));
      if (ended) bus.emit('session:ended', { sessionId, userId: session.userId, reason: 'signed_out' });
    },

    /** The caller behind an access token, or a 401 saying why there is none. */
    async authenticate(accessToken: string): Promise<Caller> {
      const claims = tokens.verify(accessToken, clock.now());
      const known = liveSessions.get(claims.sid, claims.sub);
      if (known)
        return { userId: claims.sub, sessionId: claims.sid, role: known, tokenExpiresAt: claims.exp };
      const found = await sessionById(claims.sid);
      const row = found?.userId === claims.sub ? found : undefined;
      if (!row) throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
      if (row.revokedAt || !liveSessions.remember(claims.sid, claims.sub, row.role))
        throw unauthorized('This session has ended. Please sign in again.', ErrorCode.sessionEnded);
      return { userId: claims.sub, sessionId: claims.sid, role: row.role, tokenExpiresAt: claims.exp };
    },

    /** Another process ended this session (heard through the socket adapter). */
    forgetSession(sessionId: string): void {
      liveSessions.end(sessionId);
    },

    /** A user's profile, for the answer to a refresh (the user was just read in its transaction). */
    async profileOf(userId: string): Promise<Profile> {
      const [row] = await db
        .select({ id: profiles.id, fullName: profiles.fullName, role: profiles.role })
        .from(profiles)
        .where(eq(profiles.id, userId));
      if (!row)
        throw unauthorized('Your session has ended. Please sign in again.', ErrorCode.refreshTokenInvalid);
      return row;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
