import type {
  MeResponse,
  MessageResponse,
  ResendBody,
  SessionResponse,
  SignInBody,
  SignUpBody,
} from '@classwave/shared';
import { api } from '../../api/api';
import { withNext } from './nextPath';

/**
 * Where the verification e-mail's link sends the user back to: this app's own login route, carrying
 * the page they were on the way to (a join link) so that signing in continues there. The server
 * only checks the origin.
 */
export function verificationRedirect(next: string | null = null): string {
  return `${window.location.origin}${withNext('/login', next)}`;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    signUp: build.mutation<MessageResponse, SignUpBody>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
    }),
    resendVerification: build.mutation<MessageResponse, ResendBody>({
      query: (body) => ({ url: '/auth/resend', method: 'POST', body }),
    }),
    signIn: build.mutation<SessionResponse, SignInBody>({
      // `include` so the browser stores the refresh cookie the answer sets.
      query: (body) => ({ url: '/auth/signin', method: 'POST', body, credentials: 'include' }),
    }),
    signOut: build.mutation<void, void>({
      query: () => ({ url: '/auth/signout', method: 'POST', credentials: 'include' }),
    }),
    getMe: build.query<MeResponse, void>({
      query: () => '/me',
    }),
  }),
});

export const { useSignUpMutation, useResendVerificationMutation, useSignInMutation, useSignOutMutation } =
  authApi;
