import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import type { Actor } from './factories.js';

/** tus 1.0 spoken by hand through app.inject: what a browser's tus client sends, byte for byte. */

export const TUS = { 'tus-resumable': '1.0.0' };

/** Upload-Metadata: each key with its value in base64, comma separated. */
export const tusMetadata = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

export function createUpload(
  t: TestApp,
  actor: Actor | undefined,
  meta: Record<string, string>,
  size: number,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...TUS,
      ...(actor?.headers ?? {}),
      'upload-length': String(size),
      'upload-metadata': tusMetadata(meta),
    },
  });
}

export function patchUpload(
  t: TestApp,
  actor: Actor | undefined,
  location: string,
  offset: number,
  bytes: Buffer,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...TUS,
      ...(actor?.headers ?? {}),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
}

/** Creates an upload and sends all its bytes; returns the file's id. Throws on any refusal. */
export async function uploadFile(
  t: TestApp,
  actor: Actor,
  meta: Record<string, string>,
  bytes: Buffer,
): Promise<string> {
  const created = await createUpload(t, actor, meta, bytes.length);
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const location = String(created.headers.location);
  const sent = await patchUpload(t, actor, location, 0, bytes);
  if (sent.statusCode !== 204) throw new Error(`patch: ${sent.statusCode} ${sent.body}`);
  return location.split('/').pop()!;
}
