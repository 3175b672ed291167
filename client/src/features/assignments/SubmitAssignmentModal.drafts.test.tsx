import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { receiptId, type Assignment } from '@classwave/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '../../test/confirm';
import { apiError, type Route } from '../../test/api';
import { createAssignment, createOwnSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';
import { queuedSubmits, readDeviceDraft, resetDeviceStoreForTests } from '../drafts/deviceStore';
import { DISCARD_CONFIRMATION } from './SubmitAssignmentModal';

/**
 * The answer dialog's drafts (DESIGN §12), against the API stand-in and a real (in-memory)
 * IndexedDB: the status line, the discard prompt, conflicts and the offline queue.
 */

let online = true;
beforeEach(() => {
  // A fresh, empty device for each test.
  globalThis.indexedDB = new IDBFactory();
  resetDeviceStoreForTests();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const draftUrl = (a: Assignment) => `/api/assignments/${a.id}/draft`;

async function openDialog(
  routes: (a: Assignment) => Record<string, Route> = () => ({}),
  assignment = createAssignment({ title: 'Essay' }),
) {
  const view = renderAssignments('student', {
    'GET /api/assignments': { body: [assignment] },
    [`GET ${draftUrl(assignment)}`]: apiError(404, 'Draft not found.', 'not_found'),
    ...routes(assignment),
  });
  const card = await screen.findByRole('article', { name: 'Essay' });
  await view.user.click(within(card).getByRole('button', { name: 'Submit' }));
  const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
  return { ...view, assignment, dialog, box: within(dialog).getByLabelText('Your Submission') };
}

const statusLine = () => screen.getByTestId('draft-status');

describe('the answer dialog keeps the draft', () => {
  it('restores the saved draft and says when it was saved', async () => {
    const { box } = await openDialog((a) => ({
      [`GET ${draftUrl(a)}`]: {
        body: { content: 'Earlier words', version: 3, updatedAt: new Date().toISOString() },
      },
    }));
    await waitFor(() => expect(box).toHaveValue('Earlier words'));
    expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/);
  });

  it('says Saving… while typing and Saved only once the server acknowledged the text', async () => {
    const { user, box, calls } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: () => 'pending',
    }));
    await user.type(box, 'Hello');
    expect(statusLine()).toHaveTextContent('Saving…');
    // The save goes out after the pause, from no draft (version 0), and is not yet answered.
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), { timeout: 3000 });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ content: 'Hello', baseVersion: 0 });
    expect(statusLine()).toHaveTextContent('Saving…');
    expect(statusLine()).not.toHaveTextContent('Saved');
  });

  it('shows Saved with the time after the acknowledgement, and builds on its version', async () => {
    const bodies: unknown[] = [];
    let version = 0;
    const { user, box } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: ({ body }) => {
        bodies.push(body);
        return { body: { version: ++version, updatedAt: new Date().toISOString() } };
      },
    }));
    await user.type(box, 'One');
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/), { timeout: 3000 });
    await user.type(box, ' two');
    await waitFor(() => expect(bodies).toHaveLength(2), { timeout: 3000 });
    expect(bodies[1]).toEqual({ content: 'One two', baseVersion: 1 });
  });

  it('shows the newer text with "Edited in another tab" when another tab saved first', async () => {
    const { user, box, dialog } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: {
        status: 409,
        body: {
          statusCode: 409,
          code: 'draft_conflict',
          error: 'Conflict',
          message: 'The draft was saved in another tab.',
          content: 'Text from the other tab',
          version: 4,
          updatedAt: new Date().toISOString(),
        },
      },
    }));
    await user.type(box, 'Mine');
    await waitFor(() => expect(box).toHaveValue('Text from the other tab'), { timeout: 3000 });
    expect(within(dialog).getByText('Edited in another tab')).toBeInTheDocument();
  });

  it('keeps the text on the device while offline, and says so', async () => {
    online = false;
    const { user, box, assignment, me } = await openDialog();
    await user.type(box, 'Typed offline');
    // "Not saved" lasts until the device copy is written, which a slow machine may already have
    // done by the time the last key is typed: either is honest, "Saved" never is.
    expect(statusLine()).toHaveTextContent(
      /(Not saved — check your connection|Saved on this device — reconnecting)/,
    );
    await waitFor(() => expect(statusLine()).toHaveTextContent('Saved on this device — reconnecting'), {
      timeout: 3000,
    });
    expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({
      content: 'Typed offline',
      synced: false,
    });
  });

  it('pushes a device copy the server does not have when the dialog opens again', async () => {
    const puts: unknown[] = [];
    let serverUp = false;
    const { user, box, dialog, assignment } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: ({ body }) => {
        puts.push(body);
        return serverUp
          ? { body: { version: 1, updatedAt: new Date().toISOString() } }
          : apiError(503, 'The service is briefly unavailable.', 'service_unavailable');
      },
    }));
    await user.type(box, 'Survives');
    await waitFor(() => expect(statusLine()).toHaveTextContent('Saved on this device — reconnecting'), {
      timeout: 3000,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await answerConfirm(user, 'Close anyway');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    serverUp = true;
    const card = screen.getByRole('article', { name: assignment.title });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByDisplayValue('Survives')).toBeInTheDocument();
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/));
    expect(puts.at(-1)).toEqual({ content: 'Survives', baseVersion: 0 });
  });
});

describe('closing the answer dialog', () => {
  it('asks before closing with text the server has not acknowledged, and stays open on Cancel', async () => {
    const { user, box, assignment } = await openDialog((a) => ({ [`PUT ${draftUrl(a)}`]: 'pending' }));
    void assignment;
    await user.type(box, 'Unsaved words');
    await user.keyboard('{Escape}');
    await answerConfirm(user, 'Keep editing', DISCARD_CONFIRMATION);
    expect(screen.getByRole('dialog', { name: 'Submit Assignment' })).toBeInTheDocument();
  });

  it('closes without asking once the draft is saved', async () => {
    const { user, box } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: { body: { version: 1, updatedAt: new Date().toISOString() } },
    }));
    await user.type(box, 'Saved words');
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved/), { timeout: 3000 });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the character counter', () => {
  it('counts against the limit and warns before reaching it', async () => {
    const { user, box, dialog } = await openDialog((a) => ({ [`PUT ${draftUrl(a)}`]: 'pending' }));
    await user.type(box, 'abc');
    expect(within(dialog).getByText(/^3 \/ 50,000 characters$/)).toBeInTheDocument();
    await user.clear(box);
    await user.click(box);
    await user.paste('x'.repeat(49_500));
    expect(within(dialog).getByText(/500 left before the limit/)).toBeInTheDocument();
    await user.paste('y'.repeat(600));
    expect(
      within(dialog).getByText(/100 over the limit: shorten your answer to submit it/),
    ).toBeInTheDocument();
    expect(box).toHaveValue('x'.repeat(49_500) + 'y'.repeat(600));
  });
});

describe('submitting', () => {
  it('sends an Idempotency-Key and shows the receipt', async () => {
    const submission = createOwnSubmission();
    const keys: string[] = [];
    const { user, box, dialog } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: 'pending',
      [`POST /api/assignments/${a.id}/submissions`]: { status: 201, body: submission },
    }));
    const fetchSpy = globalThis.fetch as unknown as { mock: { calls: [RequestInfo | URL, RequestInit?][] } };
    await user.type(box, 'Final answer');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await findToast(new RegExp(`Receipt ${receiptId(submission.id)}`))).toBeInTheDocument();
    for (const [input, init] of fetchSpy.mock.calls) {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'POST') keys.push(request.headers.get('idempotency-key') ?? '');
    }
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('queues a submit pressed offline and sends it, with the same key, when the connection is back', async () => {
    const submission = createOwnSubmission();
    let reachable = false;
    const keys: string[] = [];
    const { user, box, dialog, me, store, assignment } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: 'pending',
    }));
    const answered = globalThis.fetch as unknown as (
      input: RequestInfo | URL,
      init?: RequestInit,
    ) => Promise<Response>;
    let putsAfterPress = 0;
    let pressed = false;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'PUT' && pressed) putsAfterPress++;
      if (request.method !== 'POST') return answered(input, init);
      keys.push(request.headers.get('idempotency-key') ?? '');
      if (!reachable) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(submission), {
        status: keys.length > 2 ? 200 : 201,
        headers: { 'content-type': 'application/json' },
      });
    });
    await user.type(box, 'Sent later');
    online = false;
    pressed = true;
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await within(dialog).findByText('Waiting for the connection')).toBeInTheDocument();
    expect(await queuedSubmits(me.id)).toMatchObject([{ content: 'Sent later' }]);

    online = true;
    reachable = true;
    await act(async () => {
      store.dispatch({ type: 'connection/connectionChanged', payload: 'live' });
    });
    expect(await findToast(new RegExp(`Receipt ${receiptId(submission.id)}`))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(new Set(keys).size).toBe(1);
    expect(await queuedSubmits(me.id)).toEqual([]);
    // The queued submit supersedes the draft: no save raced it, and no copy of it stays behind.
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(putsAfterPress).toBe(0);
    expect(await readDeviceDraft(me.id, assignment.id)).toBeUndefined();
  });
});
