import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { emailTokens, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { AppError, badRequest } from '../http/errors.js';
import { hashToken, randomToken } from './crypto.js';
import { composeMail, type Mailer } from './mailer.js';
import { announceAccountVerified, scheduleAccountVerified } from './verified.js';
import { hashPassword } from './passwords.js';
import { revokeUserSessions } from './sessions.js';

/** A reset link works for an hour (Supabase's default), and once. */
export const RESET_LINK_TTL_MS = 3600 * 1000;
const RECOVER_MESSAGE =
  'If an account uses that address, we have sent it a link to choose a new password. It works for one hour.';

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

/**
 * Forgot password, modelled on Supabase Auth's recovery. The answer never says whether the address
 * has an account: same status and body, and comparable work on both paths (a look-up, a token drawn
 * and hashed, a write), with the mail sent after the answer so SMTP's speed cannot tell either.
 */
export function createRecoveryService(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  bus: DomainEventBus;
  appOrigin: string;
  log: FastifyBaseLogger;
}) {
  const { db, clock, mailer, bus, appOrigin, log } = deps;

  function resetPage(redirectTo: string | undefined): URL {
    const fallback = new URL('/reset-password', appOrigin);
    if (redirectTo === undefined) return fallback;
    let url: URL;
    try {
      url = new URL(redirectTo);
    } catch {
      throw badRequest('body.redirectTo must be a URL', ErrorCode.invalidRedirect);
    }
    if (url.origin !== appOrigin)
      throw badRequest(`body.redirectTo must be on ${appOrigin}`, ErrorCode.invalidRedirect);
    return url;
  }

  const invalidLink = (why: string) =>
    new AppError(400, ErrorCode.resetLinkInvalid, `${why} Ask for a new link from the sign-in page.`);

  const findLink = (q: Db | Tx, token: string) =>
    q
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, 'reset_password')));
  const checkLink = (row: typeof emailTokens.$inferSelect | undefined) => {
    if (!row) throw invalidLink('This password-reset link is not valid.');
    if (row.usedAt) throw invalidLink('This password-reset link has already been used.');
    if (row.expiresAt.getTime() <= clock.now().getTime())
      throw invalidLink('This password-reset link has expired.');
    return row;
  };

  return {
    async recover(input: { email: string; redirectTo?: string | undefined }): Promise<{ message: string }> {
      const link = resetPage(input.redirectTo);
      const token = randomToken();
      const tokenHash = hashToken(token);
      const now = clock.now();
      const [user] = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(byEmail(input.email.trim()));
      if (!user) {
        // The unknown path does a comparable write-shaped round trip, so timing does not tell.
        await db
          .select({ id: emailTokens.id })
          .from(emailTokens)
          .where(eq(emailTokens.tokenHash, tokenHash))
          .for('update');
        return { message: RECOVER_MESSAGE };
      }
      await db.insert(emailTokens).values({
        userId: user.id,
        tokenHash,
        purpose: 'reset_password',
        redirectTo: link.toString(),
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS),
      });
      link.searchParams.set('token', token);
      const mail = composeMail(
        user.email,
        'Choose a new Classwave password',
        [
          'Someone (hopefully you) asked to reset the password of your Classwave account.',
          'The link works for one hour and only once. Choosing a new password signs you out everywhere else.',
          'If you did not ask, ignore this e-mail: your password stays as it is.',
        ],
        { label: 'Choose a new password', url: link.toString() },
      );
      mailer.send(mail).catch((err: unknown) => log.warn({ err }, 'password-reset mail failed'));
      return { message: RECOVER_MESSAGE };
    },

    /**
     * Whether a reset link still works, asked as its page opens: a used or expired link is said at
     * once, not after the new password was typed twice (issue 25). Spends nothing.
     */
    async checkResetLink(input: { token: string }): Promise<{ message: string }> {
      checkLink((await findLink(db, input.token))[0]);
      return { message: 'This link works: choose a new password.' };
    },

    /** Sets a new password from a reset link; every session of the user ends (they sign in again). */
    async reset(input: { token: string; password: string }): Promise<{ message: string }> {
      const find = (q: Db | Tx) => findLink(q, input.token);
      const check = checkLink;
      check((await find(db))[0]);
      // Hash outside the transaction (it takes tens of ms), then claim the link under a row lock.
      const passwordHash = await hashPassword(input.password);
      const { userId, ended, verified } = await db.transaction(async (tx) => {
        const [row] = await find(tx).for('update');
        const link = check(row);
        const now = clock.now();
        // Using a link spends every reset link of the user: an older mail must not work afterwards.
        await tx
          .update(emailTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(emailTokens.userId, link.userId),
              eq(emailTokens.purpose, 'reset_password'),
              isNull(emailTokens.usedAt),
            ),
          );
        // The link came to the address, which proves it as well as a verification link would.
        const [before] = await tx
          .select({ confirmedAt: users.emailConfirmedAt })
          .from(users)
          .where(eq(users.id, link.userId))
          .for('update');
        await tx
          .update(users)
          .set({ passwordHash, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
          .where(eq(users.id, link.userId));
        const verified = before !== undefined && before.confirmedAt === null;
        if (verified) await scheduleAccountVerified(tx, link.userId, now);
        const ended = await revokeUserSessions(tx, {
          userId: link.userId,
          reason: 'password_reset',
          now,
        });
        return { userId: link.userId, ended, verified };
      });
      if (verified) await announceAccountVerified(bus, userId);
      for (const sessionId of ended)
        bus.emit('session:ended', { sessionId, userId, reason: 'password_reset' });
      return { message: 'Your password has been changed. Sign in with the new one.' };
    },
  };
}
export type RecoveryService = ReturnType<typeof createRecoveryService>;
