import { receiptId, type OwnSubmission } from '@classwave/shared';
import { toast } from 'sonner';
import { apiErrorCode, apiErrorMessage, httpStatus } from '../../api/errors';
import type { AppDispatch } from '../../app/store';
import { assignmentsApi } from '../assignments/assignmentsApi';
import { clockTime } from './draftStatus';
import {
  dropSubmittedDraft,
  queuedSubmits,
  readDeviceDraft,
  unqueueSubmit,
  writeDeviceDraft,
  type QueuedSubmit,
} from './deviceStore';

/** Why a queued submit is still waiting: what the dialog and the card tell the student. */
export type WaitReason =
  /** No answer at all: the network (or the server) is unreachable. */
  | 'connection'
  /** The server answered but could not take it now (5xx, 429): it is tried again shortly. */
  | 'server'
  /** Signed out (the session expired): sent once they sign in again. */
  | 'signedOut';

/** What became of one attempt to send a queued submit. */
export type SendOutcome =
  | { kind: 'submitted'; submission: OwnSubmission }
  /** It stays queued; `retryInMs` when a retry is already scheduled. */
  | { kind: 'waiting'; reason: WaitReason; retryInMs?: number }
  /** The server said no (already submitted with another key, assignment gone): dropped from the queue. */
  | { kind: 'refused'; status: number; code: string | undefined; message: string };

/** The receipt a student keeps (DESIGN §12): the server's time and a short id. */
export const receiptText = (submission: OwnSubmission) =>
  `Receipt ${receiptId(submission.id)} · ${clockTime(submission.submittedAt ?? new Date().toISOString(), true)}`;

/** Back-off for a server that answered but could not take the submit: 1 s, 2 s, 4 s … at most 60 s. */
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 60_000;

type Listener = (userId: string, assignmentId: string, outcome: SendOutcome) => void;
const listeners = new Set<Listener>();
/** Hears every outcome of every queued submit (the open dialog, the cards' "queued" badges). */
export function onSubmitOutcome(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const inFlight = new Map<string, Promise<SendOutcome>>();
const retries = new Map<string, { timer: ReturnType<typeof setTimeout>; attempt: number }>();

function backoffMs(attempt: number, retryAfter: number | undefined): number {
  const exponential = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt);
  // Jitter spreads a class whose submits all failed at once; Retry-After is a floor, never cut short.
  const jittered = exponential / 2 + Math.random() * (exponential / 2);
  return Math.min(RETRY_MAX_MS * 5, Math.max(jittered, retryAfter ?? 0));
}

/**
 * Sends one queued submit with its Idempotency-Key. Sending the same item twice (the dialog and
 * the reconnect flush at once) shares one request; a repeat after a lost answer is safe, since the
 * server answers the same submission for the same key. A 5xx or 429 is tried again by itself with
 * back-off (honouring Retry-After): the connection may be fine, so waiting for it to change would
 * wait forever.
 */
export function sendQueued(dispatch: AppDispatch, userId: string, item: QueuedSubmit): Promise<SendOutcome> {
  const running = inFlight.get(item.key);
  if (running) return running;
  const scheduled = retries.get(item.key);
  clearTimeout(scheduled?.timer);
  const attempt = scheduled?.attempt ?? 0;
  const send = (async (): Promise<SendOutcome> => {
    const result = await dispatch(
      assignmentsApi.endpoints.submitAssignment.initiate({
        assignmentId: item.assignmentId,
        content: item.content,
        idempotencyKey: item.key,
        ...(item.fileIds?.length ? { fileIds: item.fileIds } : {}),
      }),
    );
    if ('data' in result && result.data) {
      retries.delete(item.key);
      // The copy goes before the queue entry: if the page goes away in between, the entry is sent
      // again on the next load (the same key answers 200) and the cleanup runs then.
      await dropSubmittedDraft(userId, item.assignmentId);
      await unqueueSubmit(userId, item.assignmentId);
      return { kind: 'submitted', submission: result.data };
    }
    const status = httpStatus(result.error);
    if (status === 401) {
      retries.delete(item.key);
      return { kind: 'waiting', reason: 'signedOut' };
    }
    if (status === undefined || status >= 500 || status === 429) {
      const wait = backoffMs(attempt, (result.error as { retryAfterMs?: number }).retryAfterMs);
      retries.set(item.key, {
        attempt: attempt + 1,
        timer: setTimeout(() => void sendQueued(dispatch, userId, item), wait),
      });
      return { kind: 'waiting', reason: status === undefined ? 'connection' : 'server', retryInMs: wait };
    }
    retries.delete(item.key);
    await keepRefusedText(userId, item);
    await unqueueSubmit(userId, item.assignmentId);
    return {
      kind: 'refused',
      status,
      code: apiErrorCode(result.error),
      message: apiErrorMessage(result.error, 'Failed to submit assignment.'),
    };
  })();
  inFlight.set(item.key, send);
  // Said once, whoever asked: the receipt, or why it was refused.
  void send
    .then((outcome) => {
      announce(outcome);
      for (const listener of listeners) listener(userId, item.assignmentId, outcome);
    })
    .finally(() => inFlight.delete(item.key));
  return send;
}

/** A refused submit's text goes back to the device copy before the queue forgets it. */
async function keepRefusedText(userId: string, item: QueuedSubmit): Promise<void> {
  const copy = await readDeviceDraft(userId, item.assignmentId);
  if (copy?.content === item.content) return;
  await writeDeviceDraft(userId, item.assignmentId, {
    content: item.content,
    baseVersion: copy?.baseVersion ?? 0,
    synced: false,
    savedAt: Date.now(),
    // A displaced text an older version kept in the record stays with it.
    ...(copy?.displaced ? { displaced: copy.displaced } : {}),
  });
}

/** Says what became of a submit, in a toast: the receipt, or why it was refused. */
function announce(outcome: SendOutcome): void {
  if (outcome.kind === 'submitted')
    toast.success('Assignment submitted!', { description: receiptText(outcome.submission) });
  else if (outcome.kind === 'refused') toast.error(outcome.message);
}

/** Sends every submit this user queued while offline (on reconnect, and when the app starts). */
export async function flushQueuedSubmits(dispatch: AppDispatch, userId: string): Promise<void> {
  for (const item of await queuedSubmits(userId)) await sendQueued(dispatch, userId, item);
}

/** Stops the scheduled retries (signed out: nothing may be sent for someone else's session). */
export function cancelRetries(): void {
  for (const { timer } of retries.values()) clearTimeout(timer);
  retries.clear();
}
