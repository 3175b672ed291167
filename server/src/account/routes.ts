import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AccountExport,
  ChangePasswordBody,
  DeleteAccountBody,
  ErrorBody,
  MessageResponse,
  Profile,
  SessionsResponse,
  SignedOutOthersResponse,
  UpdateProfileBody,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { limitBy, type Limit } from '../auth/limits.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { AccountService } from './service.js';

/** The signed-in user's own account (DESIGN §15); registered behind the authenticate hook. */
export const accountRoutes: FastifyPluginAsyncTypebox<{
  account: AccountService;
  passwordLimit: Limit;
}> = async (app, { account, passwordLimit }) => {
  const common = { tags: ['account'], security: bearerSecurity };
  const errors = { ...signedInErrors, 429: ErrorBody };
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
};
