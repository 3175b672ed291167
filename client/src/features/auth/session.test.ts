import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { signedInAuth } from '../../test/factories';
import { followOtherTab } from './session';

describe('followOtherTab', () => {
  it('signs this tab out at once when another tab signs out', async () => {
    const store = makeStore({ auth: signedInAuth() });
    await store.dispatch(followOtherTab({ type: 'signed-out' }));
    expect(store.getState().auth).toEqual({ status: 'signedOut', session: null, profile: null });
  });

  it('leaves a signed-in tab alone when another tab signs in', async () => {
    const auth = signedInAuth();
    const store = makeStore({ auth });
    await store.dispatch(followOtherTab({ type: 'signed-in' }));
    expect(store.getState().auth).toEqual(auth);
  });
});
