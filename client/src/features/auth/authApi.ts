import type {
  AuthSettingsResponse,
  MeResponse,
  RecoverBody,
  ResetBody,
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
    /** Who may sign up as a teacher (TEACHER_SIGNUP), so the sign-up page offers only what works. */
    getAuthSettings: build.query<AuthSettingsResponse, void>({
      query: () => '/auth/settings',
    }),
    recoverPassword: build.mutation<MessageResponse, RecoverBody>({
      query: (body) => ({ url: '/auth/recover', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageResponse, ResetBody>({
      query: (body) => ({ url: '/auth/reset', method: 'POST', body }),
    }),
    /** Whether a reset link still works, asked as its page opens (400 reset_link_invalid says why). */
    checkResetLink: build.mutation<MessageResponse, { token: string }>({
      query: (body) => ({ url: '/auth/reset/check', method: 'POST', body }),
    }),
  }),
});

export const {
  useSignUpMutation,
  useResendVerificationMutation,
  useSignInMutation,
  useSignOutMutation,
  useGetAuthSettingsQuery,
  useRecoverPasswordMutation,
  useResetPasswordMutation,
  useCheckResetLinkMutation,
} = authApi;

/** The page the password-reset e-mail's link opens: this app's own reset route. */
export function resetRedirect(): string {
  return `${window.location.origin}/reset-password`;
}
