import type { Assignment, Course, LiveEvent, LiveEventData, LiveEventType, Role } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createAssignment, createCourse, createMember, signedInAuth } from '../../test/factories';
import { assignmentsApi } from '../assignments/assignmentsApi';
import { coursesApi } from '../courses/coursesApi';
import { classesApi } from './classesApi';
import type { RosterMember } from './rosterCache';

let nextEventId = 1000;
const event = <T extends LiveEventType>(type: T, data: LiveEventData[T]): LiveEvent<T> => ({
  id: ++nextEventId,
  type,
  at: new Date().toISOString(),
  data,
});

/** A signed-in user's store whose caches hold what their screens loaded. */
function storeWith(
  role: Role,
  cached: { courses?: Course[]; assignments?: Assignment[]; roster?: [string, RosterMember[]] } = {},
) {
  const auth = signedInAuth({ role });
  const store = makeStore({ auth });
  store.dispatch(
    classesApi.util.upsertQueryEntries([
      { endpointName: 'getCourses', arg: undefined, value: cached.courses ?? [] },
      ...(cached.roster
        ? [{ endpointName: 'getMembers' as const, arg: cached.roster[0], value: cached.roster[1] }]
        : []),
      ...(cached.courses ?? []).map((course) => ({
        endpointName: 'getCourse' as const,
        arg: course.id,
        value: { course, assignments: (cached.assignments ?? []).filter((a) => a.courseId === course.id) },
      })),
    ]),
  );
  store.dispatch(
    assignmentsApi.util.upsertQueryEntries([
      { endpointName: 'getAssignments', arg: undefined, value: cached.assignments ?? [] },
    ]),
  );
  const state = () => store.getState() as never;
  const read = {
    courses: () => coursesApi.endpoints.getCourses.select()(state()).data!,
    course: (id: string) => coursesApi.endpoints.getCourse.select(id)(state()).data,
    assignments: () => assignmentsApi.endpoints.getAssignments.select()(state()).data!,
    roster: (id: string) => classesApi.endpoints.getMembers.select(id)(state()).data!,
  };
  return { store, read, me: auth.profile! };
}

describe('member events for the teacher', () => {
  it('adds a student who joined to the roster, then shows them removed and restored', () => {
    const course = createCourse({ joinCode: 'ABCD-EFGH' });
    const existing = createMember({
      courseId: course.id,
      student: { id: 's1', fullName: 'Zoe', email: 'z@x.org' },
    });
    const { store, read } = storeWith('teacher', { courses: [course], roster: [course.id, [existing]] });
    const joined = createMember({
      courseId: course.id,
      student: { id: 's2', fullName: 'Ada', email: 'a@x.org' },
    });

    store.dispatch(applyLiveEvent(event('member:joined', { course, member: joined })));
    expect(read.roster(course.id).map((m) => [m.student.fullName, m.status])).toEqual([
      ['Ada', 'active'],
      ['Zoe', 'active'],
    ]);

    const removed = { ...joined, status: 'removed' as const, endedAt: new Date().toISOString() };
    store.dispatch(applyLiveEvent(event('member:removed', { course, member: removed })));
    expect(read.roster(course.id).map((m) => [m.student.fullName, m.status])).toEqual([
      ['Zoe', 'active'],
      ['Ada', 'removed'],
    ]);

    store.dispatch(applyLiveEvent(event('member:restored', { course, member: joined })));
    expect(read.roster(course.id)).toHaveLength(2);
    expect(read.roster(course.id)[0]!.status).toBe('active');
    // The teacher's own course list does not change with membership.
    expect(read.courses()).toEqual([course]);
  });

  it('updates the code of a course in the list and on its page (course:updated)', () => {
    const course = createCourse({ joinCode: 'ABCD-EFGH' });
    const { store, read } = storeWith('teacher', { courses: [course] });
    const reset = { ...course, joinCode: 'WXYZ-2345', joinEnabled: false };
    store.dispatch(applyLiveEvent(event('course:updated', reset)));
    expect(read.courses()[0]).toMatchObject({ joinCode: 'WXYZ-2345', joinEnabled: false });
    expect(read.course(course.id)?.course.joinCode).toBe('WXYZ-2345');
  });
});

describe('member events for the student concerned', () => {
  it('takes a course they were removed from, and its assignments, off every cache', () => {
    const gone = createCourse({ title: 'Chemistry' });
    const kept = createCourse({ title: 'Biology' });
    const assignments = [
      createAssignment({ courseId: gone.id, title: 'Gone' }),
      createAssignment({ courseId: kept.id, title: 'Kept' }),
    ];
    const { store, read, me } = storeWith('student', { courses: [gone, kept], assignments });
    const member = createMember({
      courseId: gone.id,
      student: { id: me.id, fullName: me.fullName, email: 'ada@example.org' },
      status: 'removed',
    });

    store.dispatch(applyLiveEvent(event('member:removed', { course: gone, member })));

    expect(read.courses().map((c) => c.title)).toEqual(['Biology']);
    expect(read.assignments().map((a) => a.title)).toEqual(['Kept']);
  });

  it('takes a course they left in another tab off the list', () => {
    const course = createCourse();
    const { store, read, me } = storeWith('student', { courses: [course] });
    const member = createMember({
      courseId: course.id,
      student: { id: me.id, fullName: me.fullName, email: 'a@x.org' },
      status: 'left',
    });
    store.dispatch(applyLiveEvent(event('member:left', { course, member })));
    expect(read.courses()).toEqual([]);
  });

  it('adds a course joined in another tab, once', () => {
    const { store, read, me } = storeWith('student');
    const course = createCourse({ title: 'Physics' });
    const member = createMember({
      courseId: course.id,
      student: { id: me.id, fullName: me.fullName, email: 'a@x.org' },
    });
    store.dispatch(applyLiveEvent(event('member:joined', { course, member })));
    store.dispatch(applyLiveEvent(event('member:joined', { course, member })));
    expect(read.courses().map((c) => c.title)).toEqual(['Physics']);
  });

  it("ignores another student's membership", () => {
    const course = createCourse();
    const { store, read } = storeWith('student', { courses: [course] });
    const member = createMember({ courseId: course.id, status: 'removed' });
    store.dispatch(applyLiveEvent(event('member:removed', { course, member })));
    expect(read.courses()).toEqual([course]);
  });
});
