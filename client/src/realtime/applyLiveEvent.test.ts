import type {
  Assignment,
  LiveEvent,
  LiveEventData,
  LiveEventType,
  Role,
  Submission,
} from '@classwave/shared';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../app/store';
import { assignmentsApi } from '../features/assignments/assignmentsApi';
import { calendarApi } from '../features/calendar/calendarApi';
import { classesApi } from '../features/classes/classesApi';
import { coursesApi } from '../features/courses/coursesApi';
import { notificationsApi } from '../features/notifications/notificationsApi';
import { todoApi } from '../features/todo/todoApi';
import { answerApi } from '../test/api';
import {
  createAssignment,
  createCourse,
  createSubmission,
  daysFromNow,
  signedInAuth,
} from '../test/factories';
import { applyLiveEvent, refetchEverything } from './applyLiveEvent';

let nextEventId = 0;
const event = <T extends LiveEventType>(type: T, data: LiveEventData[T]): LiveEvent<T> => ({
  id: ++nextEventId,
  type,
  at: new Date().toISOString(),
  data,
});

/** A store of a signed-in user whose caches already hold what their screens loaded. */
function storeWith(
  role: Role,
  cached: { assignments?: Assignment[]; submissions?: [string, Submission[]] } = {},
) {
  const store = makeStore({ auth: signedInAuth({ role }) });
  store.dispatch(
    assignmentsApi.util.upsertQueryEntries([
      { endpointName: 'getCourses', arg: undefined, value: [createCourse({ title: 'Older' })] },
      { endpointName: 'getAssignments', arg: undefined, value: cached.assignments ?? [] },
      ...(cached.submissions
        ? [
            {
              endpointName: 'getSubmissions' as const,
              arg: cached.submissions[0],
              value: cached.submissions[1],
            },
          ]
        : []),
    ]),
  );
  // The store's type knows the api before features inject their endpoints; the cache is the same.
  const state = () => store.getState() as never;
  const read = {
    courses: () => coursesApi.endpoints.getCourses.select()(state()).data!,
    assignments: () => assignmentsApi.endpoints.getAssignments.select()(state()).data!,
    submissions: (id: string) => assignmentsApi.endpoints.getSubmissions.select(id)(state()).data!,
  };
  return { store, read };
}

describe('applyLiveEvent', () => {
  it('adds a new course at the top of the list, once', () => {
    const { store, read } = storeWith('student');
    const course = createCourse({ title: 'Newest', createdAt: new Date(Date.UTC(2027, 0, 1)).toISOString() });
    store.dispatch(applyLiveEvent(event('course:created', course)));
    store.dispatch(applyLiveEvent(event('course:created', course)));
    expect(read.courses().map((c) => c.title)).toEqual(['Newest', 'Older']);
  });

  it('removes a deleted course', () => {
    const { store, read } = storeWith('teacher');
    const [existing] = read.courses();
    store.dispatch(applyLiveEvent(event('course:deleted', { id: existing!.id })));
    expect(read.courses()).toEqual([]);
  });

  it("shows a new assignment in a student's list by due date, with no submission of theirs", () => {
    const later = createAssignment({ title: 'Later', dueDate: daysFromNow(9) });
    const { store, read } = storeWith('student', { assignments: [later] });
    const created = createAssignment({
      title: 'Sooner',
      dueDate: daysFromNow(2),
      submissionCount: 0,
      status: 'not_submitted',
    });
    store.dispatch(applyLiveEvent(event('assignment:created', created)));
    expect(read.assignments().map((a) => [a.title, a.submission, a.submissionCount])).toEqual([
      ['Sooner', null, null],
      ['Later', null, null],
    ]);
  });

  it('removes a deleted assignment', () => {
    const gone = createAssignment();
    const { store, read } = storeWith('student', {
      assignments: [gone, createAssignment({ title: 'Stays' })],
    });
    store.dispatch(applyLiveEvent(event('assignment:deleted', { id: gone.id, courseId: gone.courseId })));
    expect(read.assignments().map((a) => a.title)).toEqual(['Stays']);
  });

  it("puts a new submission at the top of the teacher's open list and counts it", () => {
    const assignment = createAssignment({ submissionCount: 1 });
    const earlier = createSubmission({ assignmentId: assignment.id, submittedAt: daysFromNow(-1) });
    const { store, read } = storeWith('teacher', {
      assignments: [assignment],
      submissions: [assignment.id, [earlier]],
    });
    const arrived = createSubmission({
      assignmentId: assignment.id,
      submittedAt: new Date().toISOString(),
      student: { id: 'x', fullName: 'Ben' },
    });
    store.dispatch(applyLiveEvent(event('submission:created', arrived)));
    expect(read.submissions(assignment.id).map((s) => s.id)).toEqual([arrived.id, earlier.id]);
    expect(read.assignments()[0]!.submissionCount).toBe(2);
  });

  it('counts a submission for a teacher whose submissions list is not open', () => {
    const assignment = createAssignment({ submissionCount: 3 });
    const { store, read } = storeWith('teacher', { assignments: [assignment] });
    store.dispatch(
      applyLiveEvent(event('submission:created', createSubmission({ assignmentId: assignment.id }))),
    );
    expect(read.assignments()[0]!.submissionCount).toBe(4);
  });

  it('counts a submit onto a grade for missing work as a submission, and as nothing to grade once returned', () => {
    const assignment = createAssignment({ submissionCount: 1, needsGrading: 0 });
    const missing: Submission = {
      ...createSubmission({ assignmentId: assignment.id, grade: 0, returnedAt: new Date().toISOString() }),
      submittedAt: null,
      content: null,
    };
    const other = createSubmission({ assignmentId: assignment.id, grade: 5 });
    const stillMissing = { ...missing, id: crypto.randomUUID(), studentId: crypto.randomUUID() };
    const { store, read } = storeWith('teacher', {
      assignments: [assignment],
      submissions: [assignment.id, [other, missing, stillMissing]],
    });
    const submitted = { ...missing, content: 'Here it is', submittedAt: new Date().toISOString() };
    store.dispatch(applyLiveEvent(event('submission:created', submitted)));
    expect(read.assignments()[0]).toMatchObject({ submissionCount: 2, needsGrading: 0 });
  });

  it("replaces a graded submission in the teacher's list", () => {
    const assignment = createAssignment();
    const submission = createSubmission({ assignmentId: assignment.id });
    const { store, read } = storeWith('teacher', {
      assignments: [assignment],
      submissions: [assignment.id, [submission]],
    });
    store.dispatch(
      applyLiveEvent(event('submission:graded', { ...submission, grade: 42, feedback: 'Good' })),
    );
    expect(read.submissions(assignment.id)).toMatchObject([
      { id: submission.id, grade: 42, feedback: 'Good' },
    ]);
    expect(read.assignments()[0]!.submissionCount).toBe(assignment.submissionCount);
  });

  it("marks a student's assignment submitted, then shows the grade", () => {
    const assignment = createAssignment({ maxPoints: 50 });
    const { store, read } = storeWith('student', { assignments: [assignment] });
    const submission = createSubmission({ assignmentId: assignment.id });
    store.dispatch(applyLiveEvent(event('submission:created', submission)));
    expect(read.assignments()[0]!.submission).toMatchObject({ id: submission.id, grade: null });
    store.dispatch(
      applyLiveEvent(
        event('submission:graded', {
          ...submission,
          grade: 47,
          feedback: 'Well done',
          gradedAt: new Date().toISOString(),
        }),
      ),
    );
    expect(read.assignments()[0]!.submission).toMatchObject({ grade: 47, feedback: 'Well done' });
  });
});

describe('profile:updated', () => {
  it("renames the signed-in user in this tab, and ignores someone else's profile", () => {
    const store = makeStore({ auth: signedInAuth({ fullName: 'Old Name' }) });
    const me = store.getState().auth.profile!;
    store.dispatch(
      applyLiveEvent(event('profile:updated', { ...me, id: 'someone-else', fullName: 'Other' })),
    );
    expect(store.getState().auth.profile?.fullName).toBe('Old Name');
    store.dispatch(applyLiveEvent(event('profile:updated', { ...me, fullName: 'New Name' })));
    expect(store.getState().auth.profile).toEqual({ ...me, fullName: 'New Name' });
  });
});

describe('an event no feature follows', () => {
  it('changes nothing, as from a newer server this build does not know', () => {
    const { store, read } = storeWith('student');
    const before = store.getState();
    // A name the shared types do not have yet: it can only be cast in.
    const unknown = { id: ++nextEventId, type: 'lesson:started', at: new Date().toISOString(), data: {} };
    store.dispatch(applyLiveEvent(unknown as unknown as LiveEvent));
    expect(store.getState()).toBe(before);
    expect(read.courses().map((c) => c.title)).toEqual(['Older']);
  });
});

describe('refetchEverything', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads again the courses, a roster, the inbox, the to-do list and the calendar on screen', async () => {
    const course = createCourse();
    const calls = answerApi({
      'GET /api/courses': { body: [course] },
      [`GET /api/courses/${course.id}/members`]: { body: [] },
      'GET /api/notifications': { body: { items: [], unreadCount: 0, nextBefore: null } },
      'GET /api/todo': { body: { work: [], toGrade: [], toReturn: [] } },
      'GET /api/calendar': { body: { items: [] } },
    });
    const store = makeStore({ auth: signedInAuth({ role: 'teacher' }) });
    const shown = [
      store.dispatch(coursesApi.endpoints.getCourses.initiate()),
      store.dispatch(classesApi.endpoints.getMembers.initiate(course.id)),
      store.dispatch(notificationsApi.endpoints.getNotifications.initiate()),
      store.dispatch(todoApi.endpoints.getTodo.initiate()),
      store.dispatch(
        calendarApi.endpoints.getCalendar.initiate({ from: daysFromNow(-7), to: daysFromNow(7) }),
      ),
    ];
    await Promise.all(shown);
    const loaded = calls.length;
    store.dispatch(refetchEverything());
    await waitFor(() =>
      expect(
        calls
          .slice(loaded)
          .map((call) => call.path)
          .sort(),
      ).toEqual(
        [
          '/api/calendar',
          '/api/courses',
          `/api/courses/${course.id}/members`,
          '/api/notifications',
          '/api/todo',
        ].sort(),
      ),
    );
    for (const query of shown) query.unsubscribe();
  });
});
