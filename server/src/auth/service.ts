import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { batchLoader } from '../db/batch-loader.js';
import {
  ErrorCode,
  VerifyLinkError,
  type Profile,
  type Role,
  type Session,
  type User,
} from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { TeacherSignupPolicy } from '../config.js';
import type { Db, Tx } from '../db/client.js';
import { PG, pgCode } from '../db/errors.js';
import { emailTokens, profiles, refreshTokens, sessions, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { AppError, badRequest, unauthorized } from '../http/errors.js';
import { deriveChildToken, hashToken, randomToken } from './crypto.js';
import { composeMail, type Mailer } from './mailer.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { createSessionCache } from './session-cache.js';
import type { AccessTokens } from './tokens.js';

export interface AuthSettings {
  appOrigin: string;
  /** Key for deriving refresh-token children. */
  refreshKey: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  verifyLinkTtlSeconds: number;
  /** How long after a rotation the old refresh token still yields the same child (tabs racing). */
  refreshReuseGraceSeconds: number;
  teacherSignup: TeacherSignupPolicy;
}

export const defaultAuthSettings = {
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  verifyLinkTtlSeconds: 24 * 3600,
  refreshReuseGraceSeconds: 30,
} satisfies Partial<AuthSettings>;

/** Who is calling, as the authenticate hook found them. */
export interface Caller {
  userId: string;
  sessionId: string;
  role: Role;
  /** When the access token that identified the caller expires, in seconds since the epoch. */
  tokenExpiresAt: number;
}

export interface IssuedSession {
  session: Session;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** How long a session read as live is trusted without asking the database again (see session-cache.ts). */
const SESSION_CACHE_TTL_MS = 10_000;
const SESSION_CACHE_MAX = 100_000;

const SIGNUP_MESSAGE = 'Check your e-mail for a verification link.';
/** A session's last_seen_at is written at most this often (on refresh), never per request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
const USER_AGENT_MAX_LENGTH = 512;
/** Hops through a chain of rotations tolerated inside the grace period. */
const MAX_GRACE_HOPS = 5;

type UserRow = typeof users.$inferSelect;

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    emailConfirmedAt: row.emailConfirmedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;
const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/** Refuses a teacher sign-up that TEACHER_SIGNUP does not allow (403 naming what is missing). */
export function checkTeacherSignup(
  policy: TeacherSignupPolicy,
  input: { email: string; role?: Role | undefined; teacherCode?: string | undefined },
): void {
  if (input.role !== 'teacher' || policy.mode === 'open') return;
  if (policy.mode === 'domains') {
    const domain = input.email.trim().toLowerCase().split('@').pop() ?? '';
    if (policy.domains.includes(domain)) return;
    throw new AppError(
      403,
      ErrorCode.teacherSignupNotAllowed,
      `Teacher accounts need a school address ending in ${policy.domains.map((d) => `@${d}`).join(' or ')}. Sign up as a student, or use your school address.`,
    );
  }
  if (input.teacherCode?.trim() === policy.code) return;
  throw new AppError(
    403,
    ErrorCode.teacherSignupNotAllowed,
    input.teacherCode
      ? 'That teacher invite code is not right. Ask your school for the current code.'
      : 'Teacher accounts need the invite code from your school.',
  );
}

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  tokens: AccessTokens;
  events: DomainEventBus;
  settings: AuthSettings;
}) {
  const { db, clock, mailer, tokens, events, settings } = deps;
  const liveSessions = createSessionCache({
    ttlMs: SESSION_CACHE_TTL_MS,
    max: SESSION_CACHE_MAX,
    now: () => clock.now().getTime(),
  });
  // Every way a session ends goes through this event; the cache forgets it first.
  events.prependListener('session:ended', ({ sessionId }) => liveSessions.end(sessionId));
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

  /** Only links back to the app's own origin are allowed (no open redirect). */
  function checkRedirect(redirectTo: string | undefined): string {
    if (redirectTo === undefined) return `${settings.appOrigin}/login`;
    let url: URL;
    try {
      url = new URL(redirectTo);
    } catch {
      throw badRequest('body.redirectTo must be a URL', ErrorCode.invalidRedirect);
    }
    if (url.origin !== settings.appOrigin) {
      throw badRequest(`body.redirectTo must be on ${settings.appOrigin}`, ErrorCode.invalidRedirect);
    }
    return url.toString();
  }

  async function createVerifyLink(tx: Tx | Db, userId: string, redirectTo: string): Promise<string> {
    const token = randomToken();
    const now = clock.now();
    await tx.insert(emailTokens).values({
      userId,
      tokenHash: hashToken(token),
      purpose: 'verify_email',
      redirectTo,
      createdAt: now,
      expiresAt: addSeconds(now, settings.verifyLinkTtlSeconds),
    });
    return `${settings.appOrigin}/api/auth/verify?token=${token}`;
  }

  async function sendMail(mail: Parameters<Mailer['send']>[0]): Promise<void> {
    try {
      await mailer.send(mail);
    } catch {
      throw new AppError(
        503,
        ErrorCode.emailSendFailed,
        'We could not send the e-mail just now. Your account is safe: please ask for a new verification e-mail in a few minutes.',
        { 'retry-after': '60' },
      );
    }
  }

  const verifyMail = (to: string, link: string) =>
    composeMail(
      to,
      'Confirm your e-mail for Classwave',
      [
        'Welcome to Classwave!',
        'Please confirm your e-mail address to finish setting up your account. The link works for 24 hours.',
      ],
      { label: 'Confirm my e-mail', url: link },
    );

  async function mailAboutExistingAccount(user: UserRow, redirectTo: string): Promise<void> {
    if (user.emailConfirmedAt) {
      await sendMail(
        composeMail(user.email, 'You already have a Classwave account', [
          'Someone (perhaps you) tried to create a Classwave account with this e-mail address, but you already have one.',
          `Sign in at ${settings.appOrigin}/login. If this was not you, you can ignore this e-mail.`,
        ]),
      );
      return;
    }
    const link = await createVerifyLink(db, user.id, redirectTo);
    await sendMail(verifyMail(user.email, link));
  }

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

  return {
    async signUp(input: {
      email: string;
      password: string;
      fullName: string;
      role?: Role;
      redirectTo?: string;
      teacherCode?: string;
    }) {
      const redirectTo = checkRedirect(input.redirectTo);
      // The policy reads only the request, so refusing first reveals nothing about the address.
      checkTeacherSignup(settings.teacherSignup, input);
      const email = input.email.trim();
      // Hash first, whatever happens next, so a taken address answers as slowly as a new one.
      const passwordHash = await hashPassword(input.password);
      const [existing] = await db.select().from(users).where(byEmail(email));
      if (existing) {
        await mailAboutExistingAccount(existing, redirectTo);
        return { message: SIGNUP_MESSAGE };
      }
      let link: string;
      try {
        link = await db.transaction(async (tx) => {
          const [user] = await tx
            .insert(users)
            .values({ email, passwordHash, createdAt: clock.now() })
            .returning();
          await tx
            .insert(profiles)
            .values({ id: user!.id, fullName: input.fullName.trim(), role: input.role ?? 'student' });
          return createVerifyLink(tx, user!.id, redirectTo);
        });
      } catch (error) {
        // Two sign-ups with one address at once: the loser is treated like any taken address.
        if (pgCode(error) !== PG.uniqueViolation) throw error;
        const [winner] = await db.select().from(users).where(byEmail(email));
        if (winner) await mailAboutExistingAccount(winner, redirectTo);
        return { message: SIGNUP_MESSAGE };
      }
      await sendMail(verifyMail(email, link));
      return { message: SIGNUP_MESSAGE };
    },

    async resendVerification(input: { email: string; redirectTo?: string }) {
      const redirectTo = checkRedirect(input.redirectTo);
      const [user] = await db.select().from(users).where(byEmail(input.email.trim()));
      if (user && !user.emailConfirmedAt) {
        const link = await createVerifyLink(db, user.id, redirectTo);
        await sendMail(verifyMail(user.email, link));
      }
      return {
        message: 'If that address has an unconfirmed account, a new verification link is on its way.',
      };
    },

    /** Uses a verification link; returns where to send the browser, success or not. */
    async verifyEmail(token: string | undefined): Promise<string> {
      const loginWith = (error: VerifyLinkError) => `${settings.appOrigin}/login?error=${error}`;
      if (!token || token.length > 200) return loginWith(VerifyLinkError.invalid);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(emailTokens)
          .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, 'verify_email')))
          .for('update');
        if (!row) return loginWith(VerifyLinkError.invalid);
        if (row.usedAt) {
          const [owner] = await tx
            .select({ confirmedAt: users.emailConfirmedAt })
            .from(users)
            .where(eq(users.id, row.userId));
          return loginWith(owner?.confirmedAt ? VerifyLinkError.alreadyVerified : VerifyLinkError.used);
        }
        if (row.expiresAt.getTime() <= now.getTime()) return loginWith(VerifyLinkError.expired);
        await tx.update(emailTokens).set({ usedAt: now }).where(eq(emailTokens.id, row.id));
        await tx
          .update(users)
          .set({ emailConfirmedAt: now })
          .where(and(eq(users.id, row.userId), isNull(users.emailConfirmedAt)));
        let target: URL;
        try {
          target = new URL(row.redirectTo);
          if (target.origin !== settings.appOrigin) throw new Error('foreign origin');
        } catch {
          target = new URL(`${settings.appOrigin}/login`);
        }
        target.searchParams.set('verified', '1');
        return target.toString();
      });
    },

    async signIn(input: {
      email: string;
      password: string;
      userAgent?: string | undefined;
    }): Promise<IssuedSession> {
      const [user] = await db.select().from(users).where(byEmail(input.email.trim()));
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!user || !ok) throw new AppError(400, ErrorCode.invalidCredentials, 'Invalid login credentials');
      if (!user.emailConfirmedAt) throw new AppError(403, ErrorCode.emailNotConfirmed, 'Email not confirmed');
      return db.transaction(async (tx) => {
        const [session] = await tx
          .insert(sessions)
          .values({
            userId: user.id,
            createdAt: clock.now(),
            lastSeenAt: clock.now(),
            userAgent: input.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
          })
          .returning({ id: sessions.id });
        return issueSession(tx, user, session!.id, randomToken(), null);
      });
    },

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
      if (reused) events.emit('session:ended', { ...reused, reason: 'refresh_token_reused' });
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
      if (ended) events.emit('session:ended', { sessionId, userId: session.userId, reason: 'signed_out' });
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

    async me(caller: Caller): Promise<{ user: User; profile: Profile }> {
      const [row] = await db
        .select({ user: users, profile: profiles })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .where(eq(users.id, caller.userId));
      if (!row) throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
      return {
        user: toUser(row.user),
        profile: { id: row.profile.id, fullName: row.profile.fullName, role: row.profile.role },
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
