// Test support for the assignment screens (not part of the app bundle).
import type { Assignment, OwnSubmission, Profile, Role, Submission } from '@classwave/shared';
import { AppRoutes } from '../../app/router';
import { signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { answerApi, nextId, type Route } from '../courses/testing';

const DAY_MS = 24 * 3600 * 1000;
/** An ISO time `days` from now (negative: in the past). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

let sequence = 0;

export function createAssignment(overrides: Partial<Assignment> = {}): Assignment {
  const n = ++sequence;
  return {
    id: nextId(),
    title: `Assignment ${n}`,
    description: '',
    dueDate: daysFromNow(7),
    maxPoints: 100,
    courseId: nextId(),
    courseTitle: 'Introduction to Biology',
    createdAt: daysFromNow(-1),
    submission: null,
    submissionCount: null,
    ...overrides,
  };
}

export function createOwnSubmission(overrides: Partial<OwnSubmission> = {}): OwnSubmission {
  return {
    id: nextId(),
    submittedAt: daysFromNow(-1),
    grade: null,
    feedback: null,
    gradedAt: null,
    ...overrides,
  };
}

export function createSubmission(overrides: Partial<Submission> = {}): Submission {
  const student = overrides.student ?? { id: overrides.studentId ?? nextId(), fullName: 'Ada Lovelace' };
  return {
    id: nextId(),
    assignmentId: nextId(),
    content: 'My answer.',
    submittedAt: daysFromNow(-1),
    grade: null,
    feedback: null,
    gradedAt: null,
    ...overrides,
    studentId: student.id,
    student,
  };
}

/**
 * Renders /assignments for a signed-in user of `role`, answering the API with `routes` (by default
 * no courses); pass a function to build the routes from the user's profile, e.g. to give them courses.
 */
export function renderAssignments(
  role: Role,
  routes: Record<string, Route> | ((me: Profile) => Record<string, Route>),
) {
  const auth = signedInAuth({ fullName: 'Grace Hopper', role });
  const me = auth.profile!;
  const calls = answerApi({
    'GET /api/courses': { body: [] },
    ...(typeof routes === 'function' ? routes(me) : routes),
  });
  const view = renderWithProviders(<AppRoutes />, { route: '/assignments', preloadedState: { auth } });
  return { ...view, calls, me };
}
