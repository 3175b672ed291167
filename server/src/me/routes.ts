import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AccountExport,
  ChangePasswordBody,
  DeleteAccountBody,
  DetectedTimeZoneBody,
  ErrorBody,
  IdParams,
  MeResponse,
  MessageResponse,
  NotificationSettings,
  Profile,
  SessionsResponse,
  SignedOutOthersResponse,
  UpdateProfileBody,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { limitBy, type Limit } from '../auth/limits.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { AccountService } from './service.js';
import type { SettingsService } from './settings.js';

/**
 * Everything under /api/me: the signed-in user's profile, account (DESIGN §15) and notification
 * settings (DESIGN §14). Behind the authenticate hook.
 */
export const meRoutes: FastifyPluginAsyncTypebox<{
  account: AccountService;
  settings: SettingsService;
  passwordLimit: Limit;
}> = async (app, { account, settings, passwordLimit }) => {
  const common = { tags: ['account'], security: bearerSecurity };
  const errors = { ...signedInErrors, 429: ErrorBody };

  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and their profile',
        security: bearerSecurity,
        response: { 200: MeResponse, 401: ErrorBody },
      },
    },
    async (request) => account.me(callerOf(request)),
  );

  // A stolen access token must not become a way to guess the password behind it.
  const checkPassword = limitBy(app, [
    { name: 'account-password', key: (r) => r.caller?.userId ?? r.ip, ...passwordLimit },
  ]);

  app.patch(
    '/me',
    {
      schema: {
        ...common,
        summary: "Change the signed-in user's full name (their tabs hear profile:updated)",
        body: UpdateProfileBody,
        response: { 200: Profile, ...errors },
      },
    },
    async (request) => account.updateProfile(callerOf(request), request.body),
  );

  app.post(
    '/me/password',
    {
      preHandler: checkPassword,
      schema: {
        ...common,
        summary: 'Change the password (needs the current one); every other session ends',
        body: ChangePasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => account.changePassword(callerOf(request), request.body),
  );

  app.get(
    '/me/sessions',
    {
      schema: {
        ...common,
        summary: "The signed-in user's sessions: device, when signed in, last seen",
        response: { 200: SessionsResponse, ...errors },
      },
    },
    async (request) => account.listSessions(callerOf(request)),
  );

  app.delete(
    '/me/sessions',
    {
      schema: {
        ...common,
        summary: 'Sign out everywhere else: end every session but this one',
        response: { 200: SignedOutOthersResponse, ...errors },
      },
    },
    async (request) => account.signOutOthers(callerOf(request)),
  );

  app.delete(
    '/me/sessions/:id',
    {
      schema: {
        ...common,
        summary: "Sign one of the user's other devices out (404 for a session not theirs or already ended)",
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await account.signOutSession(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/export',
    {
      schema: {
        ...common,
        summary: 'Download my data: profile, courses, submissions with grades, and chat, as JSON',
        response: { 200: AccountExport, ...errors },
      },
    },
    async (request, reply) => {
      const data = await account.exportData(callerOf(request));
      reply.header('content-disposition', 'attachment; filename="classwave-my-data.json"');
      reply.header('cache-control', 'no-store');
      return data;
    },
  );

  app.delete(
    '/me',
    {
      preHandler: checkPassword,
      schema: {
        ...common,
        summary:
          'Delete my account (needs the password; a teacher must first delete or hand over their courses)',
        body: DeleteAccountBody,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await account.deleteAccount(callerOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/notification-settings',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'Quiet hours (opt-in) and e-mail for timed notifications',
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => settings.settings(callerOf(request)),
  );

  app.put(
    '/me/notification-settings',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'Set quiet hours and e-mail (timeZone: an IANA zone)',
        body: NotificationSettings,
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => settings.updateSettings(callerOf(request), request.body),
  );

  app.put(
    '/me/time-zone',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: "Record the browser's zone for the user's texts (kept unless they chose one in Settings)",
        body: DetectedTimeZoneBody,
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => settings.recordTimeZone(callerOf(request), request.body.timeZone),
  );
};
