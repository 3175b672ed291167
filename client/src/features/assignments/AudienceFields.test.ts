import { describe, expect, it } from 'vitest';
import { createAssignment, daysFromNow } from '../../test/factories';
import { mergeAssignment } from './assignmentCache';
import {
  audienceBody,
  audienceChanges,
  audienceOf,
  audienceProblem,
  CHOOSE_A_TIME,
  CHOOSE_STUDENTS,
  newAudience,
} from './AudienceFields';
import { toLocalInput } from './ReleaseFields';

describe('who an assignment is for and when it shows (DESIGN §20)', () => {
  it('sends nothing for the whole class at once, and the students and time when chosen', () => {
    expect(audienceBody(newAudience())).toEqual({});
    const at = daysFromNow(1);
    expect(
      audienceBody({ assignTo: 'some', assignees: ['a', 'b'], schedule: true, publishAt: toLocalInput(at) }),
    ).toEqual({ assignees: ['a', 'b'], publishAt: expect.stringMatching(/^\d{4}-/) });
  });

  it('asks for a student when "Selected students" has none, and for a later time when scheduling', () => {
    expect(audienceProblem({ ...newAudience(), assignTo: 'some' })).toBe(CHOOSE_STUDENTS);
    expect(audienceProblem({ ...newAudience(), schedule: true, publishAt: '' })).toBe(CHOOSE_A_TIME);
    expect(
      audienceProblem({ ...newAudience(), schedule: true, publishAt: toLocalInput(daysFromNow(-1)) }),
    ).toBe(CHOOSE_A_TIME);
    expect(audienceProblem(newAudience())).toBeNull();
  });

  it('edits only what changed: the students, or "publish now" for a scheduled one', () => {
    const scheduled = createAssignment({ assignees: ['a'], publishAt: daysFromNow(1) });
    const form = audienceOf(scheduled);
    expect(form).toMatchObject({ assignTo: 'some', assignees: ['a'], schedule: true });
    expect(audienceChanges(scheduled, form)).toEqual({});
    expect(audienceChanges(scheduled, { ...form, assignees: ['a', 'b'] })).toEqual({ assignees: ['a', 'b'] });
    expect(audienceChanges(scheduled, { ...form, assignTo: 'all' })).toEqual({ assignees: 'all' });
    expect(audienceChanges(scheduled, { ...form, schedule: false })).toEqual({ publishAt: null });
    // A published one has no publication to move.
    const published = createAssignment({ assignees: 'all', publishAt: null });
    expect(audienceChanges(published, { ...audienceOf(published), schedule: true })).toEqual({});
  });

  it("keeps a student's own due date when the class's view of an edit arrives", () => {
    const mine = createAssignment({ dueDate: daysFromNow(5), extendedFrom: daysFromNow(2) });
    const classView = { ...createAssignment({ id: mine.id, dueDate: daysFromNow(3) }), status: null };
    delete classView.extendedFrom;
    expect(mergeAssignment(mine, classView)).toMatchObject({
      dueDate: mine.dueDate,
      extendedFrom: classView.dueDate,
    });
    // Their own view (with extendedFrom said, even null) is their truth.
    expect(mergeAssignment(mine, { ...classView, extendedFrom: null }).dueDate).toBe(classView.dueDate);
  });
});
