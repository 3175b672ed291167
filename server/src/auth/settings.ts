import type { TeacherSignupPolicy } from '../config.js';

/** How sessions and sign-up behave (DESIGN §6); tests shorten the lifetimes. */
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
