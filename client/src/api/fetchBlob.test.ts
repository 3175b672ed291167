import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authSlice } from '../features/auth/authSlice';
import { apiError, answerApi } from '../test/api';
import { createSession, signedInAuth } from '../test/factories';
import { BlobRequestFailed, fetchBlob } from './fetchBlob';

afterEach(() => vi.unstubAllGlobals());

const storeOf = () =>
  configureStore({ reducer: { auth: authSlice.reducer }, preloadedState: { auth: signedInAuth() } });

describe('fetchBlob: bytes from the API through the re-authenticating path', () => {
  it('refreshes an expired token once and reads the bytes with the new one', async () => {
    const store = storeOf();
    const rotated = createSession();
    const tokens: (string | null)[] = [];
    let expired = true;
    answerApi({
      'GET /api/files/f1': () => {
        if (expired) {
          expired = false;
          return apiError(401, 'Token expired', 'token_expired');
        }
        return { body: 'the bytes' };
      },
      'POST /api/auth/refresh': { body: { session: rotated } },
    });
    const fetchSpy = vi.mocked(fetch);
    const blob = await store.dispatch(fetchBlob('/files/f1'));
    for (const [input] of fetchSpy.mock.calls)
      if (input instanceof Request && input.url.endsWith('/api/files/f1'))
        tokens.push(input.headers.get('authorization'));
    // The answer's bytes (its JSON text here), as a blob: jsdom's Blob has no text() to read it back.
    expect(blob.size).toBe(JSON.stringify('the bytes').length);
    expect(store.getState().auth.session?.accessToken).toBe(rotated.accessToken);
    expect(tokens.at(-1)).toBe(`Bearer ${rotated.accessToken}`);
    expect(tokens).toHaveLength(2);
  });

  it("throws the answer's status for a refusal, the bytes never read as a file", async () => {
    const store = storeOf();
    answerApi({ 'GET /api/files/gone': apiError(404, 'File not found.', 'not_found') });
    const failure = await store.dispatch(fetchBlob('/files/gone')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobRequestFailed);
    expect((failure as BlobRequestFailed).status).toBe(404);
  });
});
