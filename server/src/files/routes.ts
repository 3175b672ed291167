import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { AssignmentFiles, AssignmentFilesQuery, ErrorBody, ErrorCode, IdParams } from '@classwave/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../auth/authenticate.js';
import { errorBody } from '../http/errors.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import { requestBody } from './body.js';
import type { FileService } from './service.js';
import type { Uploads } from './uploads.js';

const TUS_BODY = 'application/offset+octet-stream';

const Bytes = {
  description: "The file's bytes (or the range asked for)",
  type: 'string',
  format: 'binary',
} as const;
const FileQuery = Type.Object(
  {
    inline: Type.Optional(
      Type.Union([Type.Literal('1'), Type.Literal('0')], {
        description:
          '1: show an image (JPEG, PNG, WebP, GIF) or PDF inline; anything else is an attachment whatever this says.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Our one error shape for what tus refused in its own words (a wrong offset, a missing header). */
async function asOurError(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as { code?: unknown };
    if (typeof parsed.code === 'string') return text;
  } catch {
    // tus's plain-text answer
  }
  const code =
    response.status === 404
      ? ErrorCode.notFound
      : response.status === 413
        ? ErrorCode.fileTooLarge
        : response.status === 400
          ? ErrorCode.validationFailed
          : response.status >= 500
            ? ErrorCode.internal
            : ErrorCode.uploadRefused;
  const message =
    response.status >= 500 ? 'Something went wrong on our side.' : text.trim() || 'The upload was refused.';
  return JSON.stringify(errorBody(response.status, code, message));
}

export const fileRoutes: FastifyPluginAsyncTypebox<{ files: FileService; uploads: Uploads }> = async (
  app,
  { files, uploads },
) => {
  const common = { tags: ['files'], security: bearerSecurity };

  // tus reads the bytes itself: the body is left as the stream it arrived as.
  app.addContentTypeParser(TUS_BODY, (_request, _payload, done) => done(null, undefined));

  /** Hands the request to tus as a web Request, and its answer back through Fastify. */
  async function tus(request: FastifyRequest, reply: FastifyReply) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const streams =
      (request.method === 'POST' || request.method === 'PATCH') &&
      request.headers['content-type']?.split(';')[0]?.trim() === TUS_BODY;
    const webRequest = new Request(new URL(request.url, 'http://uploads.invalid'), {
      method: request.method,
      headers,
      body: streams ? requestBody(request.raw) : undefined,
      duplex: 'half',
    });
    const response = await uploads.handle(webRequest, callerOf(request));
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    if (response.status >= 400)
      return reply.type('application/json; charset=utf-8').send(await asOurError(response));
    const text = await response.text();
    return reply.send(text === '' ? undefined : text);
  }

  const tusSchema = {
    ...common,
    summary: 'Resumable upload (tus 1.0): create with POST, resume with HEAD and PATCH, abandon with DELETE',
    description:
      'Upload-Metadata: `purpose` (assignment | submission | feedback; post and comment answer 422 purpose_not_available), ' +
      '`targetId` (the assignment), `name`, and for feedback `studentId`. Upload-Length is required and checked before a byte ' +
      'is stored: UPLOAD_MAX_BYTES (413 file_too_large), UPLOAD_MAX_FILES a submission (422 too_many_files), UPLOAD_QUOTA_BYTES ' +
      'a user (413 quota_exceeded). The Location answered is `/api/uploads/<file id>`; `file:ready` follows the last byte.',
  };
  app.route({ method: ['POST'], url: '/uploads', schema: tusSchema, handler: tus });
  app.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: '/uploads/:id', schema: tusSchema, handler: tus });

  app.get(
    '/files/:id',
    {
      schema: {
        ...common,
        summary: 'Download a file its parent lets you see (a Range works; with S3, a short-lived redirect)',
        description:
          'Anyone who may not see it, and everyone while it is still uploading, gets 404. Always `X-Content-Type-Options: nosniff` ' +
          'and `Content-Security-Policy: sandbox`; an attachment unless `inline=1` on an image or PDF; HTML and SVG as bytes only.',
        params: IdParams,
        querystring: FileQuery,
        response: {
          200: Bytes,
          206: Bytes,
          302: { description: 'Presigned URL of the object store' },
          ...signedInErrors,
          416: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const answer = await files.download(callerOf(request), request.params.id, {
        inline: request.query.inline === '1',
        range: request.headers.range,
      });
      reply.headers(answer.headers);
      if (answer.kind === 'redirect') return reply.redirect(answer.location, 302);
      // A stream, not the schema's string: Fastify pipes it.
      return reply.status(answer.status).send(answer.body as never);
    },
  );

  app.delete(
    '/files/:id',
    {
      schema: {
        ...common,
        summary:
          "Remove a file: its uploader, while its parent may change (a student's before handing it in)",
        params: IdParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await files.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/assignments/:id/files',
    {
      schema: {
        ...common,
        summary: "An assignment's materials and a student's feedback files, as far as you may see them",
        description:
          'Materials: its teacher and the active members of its course. Feedback: the teacher names the student ' +
          '(`studentId`); a student gets their own, once the grade is returned. Anyone else gets 404.',
        params: IdParams,
        querystring: AssignmentFilesQuery,
        response: { 200: AssignmentFiles, ...signedInErrors },
      },
    },
    async (request) => files.assignmentFiles(callerOf(request), request.params.id, request.query.studentId),
  );

  app.get(
    '/assignments/:id/submissions.zip',
    {
      schema: {
        ...common,
        summary:
          "Every handed-in file of an assignment as one zip, a folder per student (the course's teacher)",
        params: IdParams,
        response: {
          200: { description: 'A zip archive', type: 'string', format: 'binary' },
          ...signedInErrors,
        },
      },
    },
    async (request, reply) => {
      const zip = await files.submissionsZip(callerOf(request), request.params.id);
      return sendZip(reply, zip.name, zip.body);
    },
  );

  app.get(
    '/me/files.zip',
    {
      schema: {
        ...common,
        summary:
          'Download my data, its files: every file I uploaded as one zip, a folder per kind (my work, materials, feedback I gave)',
        response: {
          200: { description: 'A zip archive', type: 'string', format: 'binary' },
          ...signedInErrors,
        },
      },
    },
    async (request, reply) =>
      sendZip(reply, 'classwave-my-files.zip', await files.myFilesZip(callerOf(request))),
  );
};

/** A zip as a download that nothing caches or sniffs; the name kept to printable ASCII. */
function sendZip(reply: FastifyReply, name: string, body: Readable) {
  return reply
    .type('application/zip')
    .header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-cache')
    .send(body as never);
}
