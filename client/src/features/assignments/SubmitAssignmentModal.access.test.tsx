import { act, waitFor, within } from '@testing-library/react';
import { receiptId, type LiveEvent } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { draftUrl, freshDeviceForEachTest, openDialog, statusLine, submitUrl } from '../../test/answerDialog';
import { apiError } from '../../test/api';
import { createAssignment, createCourse, createMember, createOwnSubmission } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';

/**
 * A student removed from the course and restored while the answer dialog is open (DESIGN §17,
 * issue 25 item 4): the dialog saves again by itself, and Submit always answers.
 */
freshDeviceForEachTest();

describe('removed and restored while the dialog is open', () => {
  it('resumes saving by itself once restored, and Submit answers all along', async () => {
    const assignment = createAssignment({ title: 'Essay' });
    const course = createCourse({ id: assignment.courseId, title: 'Marine Biology' });
    const submission = createOwnSubmission();
    const access = { removed: false };
    const puts: unknown[] = [];
    const { user, box, dialog, store, me } = await openDialog(
      (a) => ({
        'GET /api/assignments': () => ({ body: access.removed ? [] : [a] }),
        [`PUT ${draftUrl(a)}`]: ({ body }) => {
          puts.push(body);
          return access.removed
            ? apiError(403, 'You are no longer a member of this course.', 'not_a_member')
            : { body: { version: puts.length, updatedAt: new Date().toISOString() } };
        },
        [`POST ${submitUrl(a)}`]: { status: 201, body: submission },
      }),
      assignment,
    );
    const member = (status: 'removed' | 'active') =>
      createMember({
        courseId: course.id,
        student: { id: me.id, fullName: me.fullName, email: 'a@b.c' },
        status,
      });
    const event = <T extends 'member:removed' | 'member:restored'>(type: T, id: number) =>
      ({
        id,
        type,
        at: new Date().toISOString(),
        data: { course, member: member(type === 'member:removed' ? 'removed' : 'active') },
      }) as LiveEvent<T>;

    await user.type(box, 'Before');
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/), { timeout: 4000 });

    access.removed = true;
    act(() => {
      store.dispatch(applyLiveEvent(event('member:removed', 1)));
    });
    expect(await within(dialog).findByText('This assignment is no longer available to you')).toBeVisible();
    await user.type(box, ', during');
    // A press while removed sends nothing, but says why.
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await findToast(/no longer available to you/)).toBeInTheDocument();

    access.removed = false;
    const before = puts.length;
    act(() => {
      store.dispatch(applyLiveEvent(event('member:restored', 2)));
    });
    await waitFor(() => expect(puts.length).toBeGreaterThan(before), { timeout: 4000 });
    expect(puts.at(-1)).toMatchObject({ content: 'Before, during' });
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/));
    expect(
      within(dialog).queryByText('This assignment is no longer available to you'),
    ).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(
      await findToast(new RegExp(`Receipt ${receiptId(submission.id)}`), { timeout: 4000 }),
    ).toBeInTheDocument();
  }, 20_000);

  it('saves again after a refused save once restored, even with the assignment still listed', async () => {
    const assignment = createAssignment({ title: 'Essay' });
    const course = createCourse({ id: assignment.courseId, title: 'Marine Biology' });
    const access = { removed: true };
    const puts: unknown[] = [];
    const { user, box, dialog, store, me } = await openDialog(
      (a) => ({
        [`PUT ${draftUrl(a)}`]: ({ body }) => {
          puts.push(body);
          return access.removed
            ? apiError(403, 'You are no longer a member of this course.', 'not_a_member')
            : { body: { version: 1, updatedAt: new Date().toISOString() } };
        },
      }),
      assignment,
    );
    await user.type(box, 'Typed while removed');
    expect(
      await within(dialog).findByText('This assignment is no longer available to you', {}, { timeout: 4000 }),
    ).toBeVisible();
    access.removed = false;
    const restored: LiveEvent<'member:restored'> = {
      id: 3,
      type: 'member:restored',
      at: new Date().toISOString(),
      data: {
        course,
        member: createMember({
          courseId: course.id,
          student: { id: me.id, fullName: me.fullName, email: 'a@b.c' },
        }),
      },
    };
    act(() => {
      store.dispatch(applyLiveEvent(restored));
    });
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/), { timeout: 4000 });
    expect(puts).toHaveLength(2);
    expect(
      within(dialog).queryByText('This assignment is no longer available to you'),
    ).not.toBeInTheDocument();
  }, 20_000);
});
