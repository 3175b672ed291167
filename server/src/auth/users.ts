import { sql } from 'drizzle-orm';
import type { User } from '@classwave/shared';
import { users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;

/** An account row as the API shows it (never its password hash). */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    emailConfirmedAt: row.emailConfirmedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An address matched as its owner typed it or not: e-mail addresses are compared without case. */
export const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;
export const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
