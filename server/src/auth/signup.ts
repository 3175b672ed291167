import { and, eq, isNull } from 'drizzle-orm';
import { ErrorCode, VerifyLinkError, type Role } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { TeacherSignupPolicy } from '../config.js';
import type { Db, Tx } from '../db/client.js';
import { PG, pgCode } from '../db/errors.js';
import { emailTokens, profiles, users } from '../db/schema.js';
import { AppError, badRequest } from '../http/errors.js';
import { hashToken, randomToken } from './crypto.js';
import { composeMail, type Mailer } from './mailer.js';
import { hashPassword } from './passwords.js';
import type { AuthSettings } from './settings.js';
import { addSeconds, byEmail, type UserRow } from './users.js';
import { announceAccountVerified, scheduleAccountVerified } from './verified.js';
import type { DomainEventBus } from '../events.js';

const SIGNUP_MESSAGE = 'Check your e-mail for a verification link.';

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

/**
 * Getting an account (DESIGN §6): sign-up with a mailed single-use verification link, resending
 * it, and following it. A taken address answers exactly like a new one (its owner is mailed
 * instead), so sign-up reveals nothing about who has an account.
 */
export function createSignupService({
  db,
  clock,
  mailer,
  settings,
  bus,
}: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  bus: DomainEventBus;
  settings: Pick<AuthSettings, 'appOrigin' | 'verifyLinkTtlSeconds' | 'teacherSignup'>;
}) {
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
      let verified: string | undefined;
      const target = await db.transaction(async (tx) => {
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
        const confirmed = await tx
          .update(users)
          .set({ emailConfirmedAt: now })
          .where(and(eq(users.id, row.userId), isNull(users.emailConfirmedAt)))
          .returning({ id: users.id });
        if (confirmed.length > 0) {
          await scheduleAccountVerified(tx, row.userId, now);
          verified = row.userId;
        }
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
      if (verified) await announceAccountVerified(bus, verified);
      return target;
    },
  };
}
