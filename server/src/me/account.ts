import { eq } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/client.js';
import { profiles, users } from '../db/schema.js';
import { unauthorized } from '../http/errors.js';

/**
 * The caller's account row and profile. Gone while their token still verifies (deleted in another
 * tab a moment ago): 401, as for any token that names no one.
 */
export async function accountOf(db: Db, caller: Caller) {
  const [row] = await db
    .select({ user: users, profile: profiles })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, caller.userId));
  if (!row) throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
  return row;
}
