import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import type { Assignment, Profile } from '@classwave/shared';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetDeviceStoreForTests } from '../features/drafts/deviceStore';
import { apiError, type Route } from './api';
import { createAssignment } from './factories';
import { renderAssignments } from './renderRoute';

/**
 * The student's answer dialog over the API stand-in and a real (in-memory) IndexedDB, for the
 * drafts tests: a fresh empty device for each test, and `navigator.onLine` under the test's control.
 */
export const network = { online: true };

export function freshDeviceForEachTest(): void {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    resetDeviceStoreForTests();
    network.online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => network.online);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}

export const draftUrl = (a: Assignment) => `/api/assignments/${a.id}/draft`;
export const submitUrl = (a: Assignment) => `/api/assignments/${a.id}/submissions`;
export const statusLine = () => screen.getByTestId('draft-status');

/** /assignments for a student with one assignment, its answer dialog opened from the card. */
export async function openDialog(
  routes: (a: Assignment) => Record<string, Route> = () => ({}),
  assignment = createAssignment({ title: 'Essay' }),
  profile: Partial<Profile> = {},
) {
  const view = renderAssignments(
    'student',
    {
      'GET /api/assignments': { body: [assignment] },
      [`GET ${draftUrl(assignment)}`]: apiError(404, 'Draft not found.', 'not_found'),
      ...routes(assignment),
    },
    profile,
  );
  const card = await screen.findByRole('article', { name: assignment.title });
  await view.user.click(within(card).getByRole('button', { name: /Submit|Waiting to submit/ }));
  const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
  return { ...view, assignment, card, dialog, box: within(dialog).getByLabelText('Your Submission') };
}

/** The 409 draft_conflict another tab's newer save causes. */
export const draftConflict = (content: string, version: number, updatedAt: string) => ({
  status: 409,
  body: {
    statusCode: 409,
    code: 'draft_conflict',
    error: 'Conflict',
    message: 'The draft was saved in another tab.',
    content,
    version,
    updatedAt,
  },
});
