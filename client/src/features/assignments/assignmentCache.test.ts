import { describe, expect, it } from 'vitest';
import { createAssignment, createOwnSubmission, createSubmission, daysFromNow } from '../../test/factories';
import {
  mergeAssignment,
  removeAssignment,
  replaceSubmission,
  setOwnSubmission,
  upsertAssignments,
  upsertSubmission,
} from './assignmentCache';

describe('assignment cache updates', () => {
  it('adds assignments in due-date order, once each', () => {
    const soon = createAssignment({ dueDate: daysFromNow(1) });
    const later = createAssignment({ dueDate: daysFromNow(5) });
    const middle = createAssignment({ dueDate: daysFromNow(3) });
    const list = [soon, later];
    upsertAssignments(list, [middle]);
    upsertAssignments(list, [middle]);
    expect(list.map((a) => a.id)).toEqual([soon.id, middle.id, later.id]);
  });

  it('removes an assignment by id', () => {
    const a = createAssignment();
    const b = createAssignment();
    const list = [a, b];
    removeAssignment(list, a.id);
    expect(list).toEqual([b]);
  });

  it("records the student's own submission on the right assignment", () => {
    const a = createAssignment();
    const b = createAssignment();
    const list = [a, b];
    const submission = createOwnSubmission();
    setOwnSubmission(list, b.id, submission);
    expect(list[0]!.submission).toBeNull();
    expect(list[1]!.submission).toEqual(submission);
  });

  it('replaces a graded submission in place', () => {
    const first = createSubmission();
    const second = createSubmission();
    const list = [first, second];
    replaceSubmission(list, { ...second, grade: 9 });
    expect(list.map((s) => s.grade)).toEqual([null, 9]);
  });

  it("keeps a student's own status and submission through an edit sent to the whole class", () => {
    const excused = createAssignment({ title: 'Before', status: 'excused', dueDate: daysFromNow(-1) });
    const shared = { ...excused, title: 'After', dueDate: daysFromNow(-2), status: null, submission: null };
    expect(mergeAssignment(excused, shared)).toMatchObject({ title: 'After', status: 'excused' });
    const submission = createOwnSubmission({ grade: 9, returnedAt: daysFromNow(-1) });
    const returned = createAssignment({ status: 'returned', submission });
    expect(mergeAssignment(returned, { ...returned, status: null, submission: null })).toMatchObject({
      status: 'returned',
      submission,
    });
    // The student's own view (an excuse taken back) is their truth, whole.
    const own = { ...excused, status: 'missing' as const, submission: null };
    expect(mergeAssignment(excused, own)).toEqual(own);
  });
});

describe('upsertSubmission', () => {
  // Issue 26: a saved grade's answer (and its event) carry no files, and the grading view lost them.
  it('keeps the files a listed submission has when the new copy carries none', () => {
    const files = [{ id: 'f1', name: 'photo.jpg', size: 10, type: 'image/jpeg' }];
    const listed = { ...createSubmission({ content: 'Work' }), files };
    const list = [listed];
    const { files: _dropped, ...withoutFiles } = listed;
    upsertSubmission(list, { ...withoutFiles, grade: 9 });
    expect(list[0]).toMatchObject({ grade: 9, files });
    upsertSubmission(list, { ...listed, files: [] });
    expect(list[0]!.files).toEqual([]);
    const regraded = [listed];
    replaceSubmission(regraded, { ...withoutFiles, grade: 8 });
    expect(regraded[0]).toMatchObject({ grade: 8, files });
  });
});
