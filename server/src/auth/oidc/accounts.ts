import { and, eq, isNull } from 'drizzle-orm';
import { OidcSigninError, type Role } from '@classwave/shared';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { PG, pgCode } from '../../db/errors.js';
import { profiles, users } from '../../db/schema.js';
import { randomToken } from '../crypto.js';
import { hashPassword } from '../passwords.js';
import { byEmail, type UserRow } from '../users.js';
import type { DomainEventBus } from '../../events.js';
import { announceAccountVerified, scheduleAccountVerified } from '../verified.js';
import type { OidcClaims } from './client.js';
import { roleFor, type RoleRule } from './config.js';

const FULL_NAME_MAX_LENGTH = 100;
const EMAIL_MAX_LENGTH = 254;

/** The account a school sign-in lands in, or why there is none. */
export type OidcAccount = { user: UserRow } | { refused: OidcSigninError };

/** A name from the claims a provider sends (OIDC Core §5.1), else the address's local part. */
function fullNameOf(claims: OidcClaims, email: string): string {
  const given = typeof claims.given_name === 'string' ? claims.given_name : '';
  const family = typeof claims.family_name === 'string' ? claims.family_name : '';
  const name = typeof claims.name === 'string' ? claims.name : `${given} ${family}`;
  const cleaned = name.replace(/\s+/g, ' ').trim();
  return (cleaned || email.split('@')[0]!).slice(0, FULL_NAME_MAX_LENGTH);
}

/**
 * Links a school sign-in to an account by its verified e-mail address, or creates one with the
 * role OIDC_ROLE_RULES gives (DESIGN §20). The rules also say who may come in at all: an address
 * no rule matches is refused even when it has an account, so the school's IT decides in one place.
 * An existing account keeps its role: a rule that changed would otherwise silently turn a student
 * into a teacher (or take a teacher's courses away).
 */
export function createOidcAccounts(deps: {
  db: Db;
  clock: Clock;
  bus: DomainEventBus;
  roleRules: RoleRule[];
}) {
  const { db, clock, bus, roleRules } = deps;

  async function unusablePasswordHash(): Promise<string> {
    // A password nobody knows: the account signs in through the school (or sets one by recovery).
    return hashPassword(randomToken());
  }

  return {
    async accountFor(claims: OidcClaims): Promise<OidcAccount> {
      const email = typeof claims.email === 'string' ? claims.email.trim() : '';
      // Some providers send the boolean as a string; anything else is not a verified address.
      const verified = claims.email_verified === true || claims.email_verified === 'true';
      if (!email || email.length > EMAIL_MAX_LENGTH || !email.includes('@') || !verified)
        return { refused: OidcSigninError.emailUnverified };
      const role: Role | undefined = roleFor(roleRules, email, claims);
      if (!role) return { refused: OidcSigninError.noRole };

      const [existing] = await db.select().from(users).where(byEmail(email));
      if (existing) {
        if (existing.emailConfirmedAt) return { user: existing };
        // An unconfirmed account may have been made by someone else with this address and a
        // password they know: the school vouches for the address now, so that password must go.
        const passwordHash = await unusablePasswordHash();
        const confirmed = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(users)
            .set({ emailConfirmedAt: clock.now(), passwordHash })
            .where(and(eq(users.id, existing.id), isNull(users.emailConfirmedAt)))
            .returning();
          if (row) await scheduleAccountVerified(tx, row.id, clock.now());
          return row;
        });
        if (!confirmed) {
          // Its own verification link got there first: that one announced it.
          const [now] = await db.select().from(users).where(eq(users.id, existing.id));
          return { user: now! };
        }
        await announceAccountVerified(bus, confirmed.id);
        return { user: confirmed };
      }
      const passwordHash = await unusablePasswordHash();
      try {
        const user = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({ email, passwordHash, emailConfirmedAt: clock.now(), createdAt: clock.now() })
            .returning();
          await tx.insert(profiles).values({ id: row!.id, fullName: fullNameOf(claims, email), role });
          await scheduleAccountVerified(tx, row!.id, clock.now());
          return row!;
        });
        await announceAccountVerified(bus, user.id);
        return { user };
      } catch (error) {
        // The same person's second tab got there first: theirs is the account.
        if (pgCode(error) !== PG.uniqueViolation) throw error;
        const [winner] = await db.select().from(users).where(byEmail(email));
        if (!winner) throw error;
        return { user: winner };
      }
    },
  };
}
