import type { Profile, Session } from '@classwave/shared';
import type { AuthState } from '../features/auth/authSlice';

let sequence = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export function createProfile(overrides: Partial<Profile> = {}): Profile {
  return { id: nextId(), fullName: 'Ada Lovelace', role: 'student', ...overrides };
}

export function createSession(overrides: Partial<Session> = {}): Session {
  const expiresIn = 900;
  return {
    accessToken: `token-${++sequence}`,
    tokenType: 'bearer',
    expiresIn,
    expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
    user: {
      id: nextId(),
      email: 'ada@example.org',
      emailConfirmedAt: '2026-01-05T09:00:00.000Z',
      createdAt: '2026-01-05T08:55:00.000Z',
    },
    ...overrides,
  };
}

/** Auth state of a signed-in user with a loaded profile. */
export function signedInAuth(profile: Partial<Profile> = {}): AuthState {
  const session = createSession();
  return { status: 'signedIn', session, profile: createProfile({ id: session.user.id, ...profile }) };
}

export const signedOutAuth = (): AuthState => ({ status: 'signedOut', session: null, profile: null });
export const loadingAuth = (): AuthState => ({ status: 'loading', session: null, profile: null });
