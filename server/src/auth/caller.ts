import type { Role } from '@classwave/shared';

/** Who is calling, as the authenticate hook found them. */
export interface Caller {
  userId: string;
  sessionId: string;
  role: Role;
  /** When the access token that identified the caller expires, in seconds since the epoch. */
  tokenExpiresAt: number;
}
