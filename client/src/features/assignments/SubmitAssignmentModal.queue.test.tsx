import { act, screen, waitFor, within } from '@testing-library/react';
import { receiptId } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { draftUrl, openDialog, submitUrl, freshDeviceForEachTest } from '../../test/answerDialog';
import { createAssignment, createOwnSubmission, nextId } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { queueSubmit, queuedSubmits, readDeviceDraft } from '../drafts/deviceStore';

/**
 * Submitting (DESIGN §12, issue 12): a submit supersedes the draft's saves, so nothing stale comes
 * back after it; a busy server is retried by itself; a queued submit survives a reload.
 */
freshDeviceForEachTest();

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Wraps the API stand-in to see (and hold back) requests in flight. */
function watchFetch(hold?: (request: Request) => Promise<void> | undefined) {
  const answered = globalThis.fetch as Fetch;
  const seen: Request[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    seen.push(request.clone());
    await hold?.(request);
    return answered(request);
  }) as Fetch;
  return seen;
}

const methods = (seen: Request[]) => seen.map((r) => r.method).filter((m) => m === 'PUT' || m === 'POST');

describe('a submit and the draft', () => {
  it('waits for the save under way, sends no draft save after the press, and leaves no device copy', async () => {
    const submission = createOwnSubmission();
    const { user, box, dialog, assignment, me } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: { body: { version: 1, updatedAt: new Date().toISOString() } },
      [`POST ${submitUrl(a)}`]: { status: 201, body: submission },
    }));
    let releasePut = () => {};
    const putHeld = new Promise<void>((resolve) => (releasePut = resolve));
    const seen = watchFetch((request) => (request.method === 'PUT' ? putHeld : undefined));
    await user.type(box, 'Final answer');
    await waitFor(() => expect(methods(seen)).toEqual(['PUT']), { timeout: 3000 });
    await user.type(box, '!');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    // The save under way finishes first: the submit never races it.
    await new Promise((r) => setTimeout(r, 100));
    expect(methods(seen)).toEqual(['PUT']);
    releasePut();
    expect(await findToast(new RegExp(`Receipt ${receiptId(submission.id)}`))).toBeInTheDocument();
    expect(methods(seen)).toEqual(['PUT', 'POST']);
    expect(await seen.find((r) => r.method === 'POST')!.json()).toEqual({ content: 'Final answer!' });
    // Past the pause and the 10 s ceiling's first tick nothing saves the draft again.
    await new Promise((r) => setTimeout(r, 1800));
    expect(methods(seen)).toEqual(['PUT', 'POST']);
    expect(await readDeviceDraft(me.id, assignment.id)).toBeUndefined();
  }, 15_000);

  it('retries a busy server by itself, honouring Retry-After, and says the server is busy', async () => {
    const submission = createOwnSubmission();
    let posts = 0;
    const { user, box, dialog } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: 'pending',
      [`POST ${submitUrl(a)}`]: () =>
        ++posts === 1
          ? {
              status: 503,
              headers: { 'retry-after': '2' },
              body: { statusCode: 503, code: 'service_unavailable', error: 'x', message: 'Busy.' },
            }
          : { status: 201, body: submission },
    }));
    const seen = watchFetch();
    await user.type(box, 'Sent when it can be');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await within(dialog).findByText('The server is busy — trying again')).toBeInTheDocument();
    expect(within(dialog).queryByText('Waiting for the connection')).not.toBeInTheDocument();
    // No change of connection: the queue tries again by itself, no sooner than Retry-After (its own
    // first back-off would be at most 1 s).
    await new Promise((r) => setTimeout(r, 1300));
    expect(posts).toBe(1);
    expect(
      await findToast(new RegExp(`Receipt ${receiptId(submission.id)}`), { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const keys = seen.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  }, 15_000);

  it('shows a submit queued before a reload as queued, and does not offer Submit again', async () => {
    const id = nextId();
    const assignment = createAssignment({ title: 'Essay' });
    await queueSubmit(id, {
      assignmentId: assignment.id,
      content: 'Pressed before the reload',
      key: crypto.randomUUID(),
      queuedAt: Date.now(),
    });
    const { card, dialog, box } = await openDialog(
      (a) => ({ [`POST ${submitUrl(a)}`]: 'pending' }),
      assignment,
      { id },
    );
    expect(within(card).queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Waiting to submit' })).toBeInTheDocument();
    expect(await within(dialog).findByText('Waiting to submit')).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Pressed before the reload'));
    expect(box).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('button', { name: /Waiting to submit/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(await queuedSubmits(id)).toHaveLength(1);
  });
});

describe('leaving the page', () => {
  it('sends the last save on pagehide with keepalive and the Authorization header', async () => {
    const { user, box } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: { body: { version: 1, updatedAt: new Date().toISOString() } },
    }));
    const seen = watchFetch();
    await user.type(box, 'Last words');
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    await waitFor(() => expect(seen.some((r) => r.method === 'PUT')).toBe(true));
    const put = seen.find((r) => r.method === 'PUT')!;
    expect(put.keepalive).toBe(true);
    expect(put.headers.get('authorization')).toMatch(/^Bearer /);
    expect(await put.json()).toEqual({ content: 'Last words', baseVersion: 0 });
  });
});
