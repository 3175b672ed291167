import { act, render, screen } from '@testing-library/react';
import type { Assignment, LiveEvent, Submission } from '@classwave/shared';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../app/store';
import { assignmentsApi } from '../features/assignments/assignmentsApi';
import { onDraftSaved } from '../features/drafts/draftEvents';
import { createAssignment, createOwnSubmission, createSubmission, signedInAuth } from '../test/factories';
import { applyLiveEvent } from './applyLiveEvent';
import { ConnectionIndicator } from './ConnectionIndicator';
import { connectionChanged, connectionFrom } from './connectionSlice';

let id = 1000;
const live = <T extends 'submission:withdrawn' | 'draft:saved'>(type: T, data: LiveEvent<T>['data']) =>
  ({ id: ++id, type, at: new Date().toISOString(), data }) as LiveEvent<T>;

function storeOf(
  role: 'student' | 'teacher',
  assignments: Assignment[],
  submissions?: [string, Submission[]],
) {
  const store = makeStore({ auth: signedInAuth({ role }) });
  store.dispatch(
    assignmentsApi.util.upsertQueryEntries([
      { endpointName: 'getAssignments', arg: undefined, value: assignments },
      ...(submissions
        ? [{ endpointName: 'getSubmissions' as const, arg: submissions[0], value: submissions[1] }]
        : []),
    ]),
  );
  const state = () => store.getState() as never;
  return {
    store,
    assignments: () => assignmentsApi.endpoints.getAssignments.select()(state()).data!,
    submissions: (key: string) => assignmentsApi.endpoints.getSubmissions.select(key)(state()).data!,
  };
}

describe('submission:withdrawn', () => {
  it("clears the student's own submission, so the card offers Submit again", () => {
    const own = createOwnSubmission();
    const assignment = createAssignment({ submission: own });
    const { store, assignments } = storeOf('student', [assignment]);
    store.dispatch(
      applyLiveEvent(
        live('submission:withdrawn', {
          id: own.id,
          assignmentId: assignment.id,
          courseId: assignment.courseId,
          studentId: 'me',
        }),
      ),
    );
    expect(assignments()[0]!.submission).toBeNull();
  });

  it("drops it from the teacher's open list and count", () => {
    const assignment = createAssignment({ submissionCount: 2 });
    const [kept, withdrawn] = [
      createSubmission({ assignmentId: assignment.id }),
      createSubmission({ assignmentId: assignment.id }),
    ];
    const { store, assignments, submissions } = storeOf(
      'teacher',
      [assignment],
      [assignment.id, [kept!, withdrawn!]],
    );
    store.dispatch(
      applyLiveEvent(
        live('submission:withdrawn', {
          id: withdrawn!.id,
          assignmentId: assignment.id,
          courseId: assignment.courseId,
          studentId: withdrawn!.studentId,
        }),
      ),
    );
    expect(submissions(assignment.id).map((s) => s.id)).toEqual([kept!.id]);
    expect(assignments()[0]!.submissionCount).toBe(1);
  });
});

describe('draft:saved', () => {
  it('is handed to the open answer dialog', () => {
    const heard: unknown[] = [];
    const stop = onDraftSaved((event) => heard.push(event));
    const { store } = storeOf('student', []);
    const data = { assignmentId: 'a1', version: 3, updatedAt: new Date().toISOString() };
    store.dispatch(applyLiveEvent(live('draft:saved', data)));
    stop();
    store.dispatch(applyLiveEvent(live('draft:saved', { ...data, version: 4 })));
    expect(heard).toEqual([data]);
  });
});

describe('the connection indicator', () => {
  it('follows the browser and the socket', () => {
    expect(connectionFrom(false, true)).toBe('offline');
    expect(connectionFrom(true, false)).toBe('reconnecting');
    expect(connectionFrom(true, false, false)).toBe('connecting');
    expect(connectionFrom(true, true)).toBe('live');
  });

  it('says nothing on a page load, a polite label when in trouble, and "Live" once recovered', () => {
    const store = makeStore({ auth: signedInAuth({ role: 'student' }) });
    render(
      <Provider store={store}>
        <ConnectionIndicator />
      </Provider>,
    );
    const indicator = screen.getByRole('status');
    expect(indicator).toHaveAttribute('aria-live', 'polite');
    // The first connection being made is not news: no "Reconnecting…" then "Live" on every load.
    expect(indicator).toHaveAttribute('data-state', 'connecting');
    expect(indicator).toHaveTextContent(/^$/);
    act(() => void store.dispatch(connectionChanged('live')));
    expect(indicator).toHaveAttribute('data-state', 'live');
    expect(indicator).toHaveTextContent(/^$/);
    act(() => void store.dispatch(connectionChanged('offline')));
    expect(indicator.querySelector('.connection__label')).toHaveTextContent('Offline');
    act(() => void store.dispatch(connectionChanged('reconnecting')));
    expect(indicator).toHaveTextContent('Reconnecting…');
    act(() => void store.dispatch(connectionChanged('live')));
    expect(indicator.querySelector('.sr-only')).toHaveTextContent('Live');
  });

  it('says the session expired instead of a connection state while signed out by it', () => {
    const store = makeStore({
      auth: { ...signedInAuth({ role: 'student' }), status: 'expired', session: null },
    });
    render(
      <Provider store={store}>
        <ConnectionIndicator />
      </Provider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Signed out — sign in to reconnect');
  });
});
