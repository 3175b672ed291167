import type {
  AccountExport,
  ChangePasswordBody,
  DeleteAccountBody,
  MessageResponse,
  Profile,
  SessionsResponse,
  SignedOutOthersResponse,
  UpdateProfileBody,
} from '@classwave/shared';
import { api } from '../../api/api';

/** The signed-in user's own account (DESIGN §15). */
export const settingsApi = api.enhanceEndpoints({ addTagTypes: ['Sessions'] }).injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<Profile, UpdateProfileBody>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
    }),
    changePassword: build.mutation<MessageResponse, ChangePasswordBody>({
      query: (body) => ({ url: '/me/password', method: 'POST', body }),
      invalidatesTags: ['Sessions'],
    }),
    getSessions: build.query<SessionsResponse, void>({
      query: () => '/me/sessions',
      providesTags: ['Sessions'],
    }),
    signOutOthers: build.mutation<SignedOutOthersResponse, void>({
      query: () => ({ url: '/me/sessions', method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    /** One other device signed out (issue 25). */
    signOutSession: build.mutation<void, string>({
      query: (sessionId) => ({ url: `/me/sessions/${encodeURIComponent(sessionId)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    exportData: build.mutation<AccountExport, void>({
      query: () => ({ url: '/me/export', method: 'GET' }),
    }),
    deleteAccount: build.mutation<void, DeleteAccountBody>({
      query: (body) => ({ url: '/me', method: 'DELETE', body }),
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useGetSessionsQuery,
  useSignOutOthersMutation,
  useSignOutSessionMutation,
  useExportDataMutation,
  useDeleteAccountMutation,
} = settingsApi;
