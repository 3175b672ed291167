import type { Profile } from '@classwave/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, type Route } from '../../test/api';
import { createAssignment, createCourse, createMember } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';
import { ENTER_A_TITLE, PAST_DUE_WARNING } from './CreateAssignmentModal';
import { CHOOSE_STUDENTS } from './AudienceFields';

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * A teacher with one own course (`more` courses besides, their own unless another `teacherId` says
 * they co-teach it, DESIGN §20) opens Create Assignment.
 */
async function openDialog(
  extraRoutes: (me: Profile) => Record<string, Route> = () => ({}),
  more: readonly { title: string; code: string; teacherId?: string }[] = [],
) {
  const view = renderAssignments('teacher', (me) => ({
    'GET /api/assignments': { body: [] },
    'GET /api/courses': {
      body: [
        createCourse({ title: 'My Biology', code: 'BIO1', teacherId: me.id }),
        ...more.map((course) => createCourse({ teacherId: me.id, ...course })),
      ],
    },
    ...extraRoutes(me),
  }));
  await view.user.click(await screen.findByRole('button', { name: 'Create Assignment' }));
  const dialog = screen.getByRole('dialog', { name: 'Create Assignment' });
  await within(dialog).findByRole('option', { name: 'My Biology (BIO1)' });
  return { ...view, dialog };
}

describe('CreateAssignmentModal', () => {
  it('offers every course the teacher teaches, co-taught ones too, after the placeholder', async () => {
    const { dialog } = await openDialog(undefined, [
      { title: 'My Chemistry', code: 'CHE1' },
      { title: 'Shared Physics', code: 'PHY1', teacherId: 'c0000000-0000-4000-8000-0000000000f1' },
    ]);
    const course = within(dialog).getByLabelText('Course');
    const options = within(course).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Select a course',
      'My Biology (BIO1)',
      'My Chemistry (CHE1)',
      'Shared Physics (PHY1)',
    ]);
    expect(course).toHaveValue('');
  });

  // Issue 25: a teacher with one course had to pick it every time.
  it('chooses the only course of a teacher who has one', async () => {
    const { dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Course')).toHaveDisplayValue('My Biology (BIO1)');
  });

  it('has the required fields, 100 points by default, and an optional description', async () => {
    const { dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Title')).toBeRequired();
    expect(within(dialog).getByLabelText('Course')).toHaveAttribute('aria-required', 'true');
    expect(within(dialog).getByLabelText('Due Date')).toHaveAttribute('type', 'datetime-local');
    expect(within(dialog).getByLabelText('Due Date')).toBeRequired();
    const points = within(dialog).getByLabelText('Max Points');
    expect(points).toHaveValue(100);
    expect(points).toBeRequired();
    expect(points).toHaveAttribute('min', '1');
    expect(points).toHaveAttribute('step', '1');
    expect(within(dialog).getByLabelText('Description')).not.toBeRequired();
  });

  it("refuses to create without a course, saying 'Please select a course.'", async () => {
    const { dialog, user, calls } = await openDialog(undefined, [{ title: 'My Chemistry', code: 'CHE1' }]);
    await user.type(within(dialog).getByLabelText('Title'), 'Lab report');
    fireEvent.change(within(dialog).getByLabelText('Due Date'), { target: { value: '2030-05-01T09:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));

    expect(await findToast('Please select a course.')).toBeInTheDocument();
    const course = within(dialog).getByLabelText('Course');
    expect(course).toHaveAccessibleDescription('Please select a course.');
    expect(course).toHaveFocus();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Create Assignment' })).toBeInTheDocument();
  });

  it('creates the assignment with an ISO due date and whole points, then lists it', async () => {
    const { dialog, user, calls } = await openDialog(() => ({
      'POST /api/assignments': ({ body }) => ({
        status: 201,
        body: createAssignment({ ...(body as object), courseTitle: 'My Biology', submissionCount: 0 }),
      }),
      'GET /api/dashboard': 'pending',
    }));
    await user.type(within(dialog).getByLabelText('Title'), '  Lab report ');
    await user.selectOptions(within(dialog).getByLabelText('Course'), 'My Biology (BIO1)');
    fireEvent.change(within(dialog).getByLabelText('Due Date'), { target: { value: '2030-05-01T09:30' } });
    const points = within(dialog).getByLabelText('Max Points');
    await user.clear(points);
    await user.type(points, '50');
    await user.type(within(dialog).getByLabelText('Description'), 'Write it up.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));

    expect(await findToast('Assignment created!')).toBeInTheDocument();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      title: 'Lab report',
      description: 'Write it up.',
      dueDate: new Date('2030-05-01T09:30').toISOString(),
      maxPoints: 50,
      courseId: expect.any(String),
      gradeRelease: 'auto',
      closesAtDue: false,
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Lab report' })).toHaveTextContent('50 points');
  });

  it('assigns to the students ticked on the roster, and asks for one when none is (DESIGN §20)', async () => {
    const person = (id: string, fullName: string) => ({ id, fullName, email: `${fullName}@x.org` });
    const ada = createMember({ student: person('a0000000-0000-4000-8000-00000000000a', 'Ada') });
    const ben = createMember({ student: person('b0000000-0000-4000-8000-00000000000b', 'Ben') });
    const view = renderAssignments('teacher', (me) => {
      const course = createCourse({ title: 'My Biology', code: 'BIO1', teacherId: me.id });
      return {
        'GET /api/assignments': { body: [] },
        'GET /api/courses': { body: [course] },
        [`GET /api/courses/${course.id}/members`]: { body: [ben, ada] },
        'POST /api/assignments': ({ body }) => ({
          status: 201,
          body: createAssignment({ ...(body as object), courseTitle: 'My Biology', submissionCount: 0 }),
        }),
        'GET /api/dashboard': 'pending',
      };
    });
    const { user, calls } = view;
    await user.click(await screen.findByRole('button', { name: 'Create Assignment' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Assignment' });
    await user.type(within(dialog).getByLabelText('Title'), 'Lab report');
    fireEvent.change(within(dialog).getByLabelText('Due Date'), { target: { value: '2030-05-01T09:30' } });
    await user.click(within(dialog).getByLabelText('Selected students'));
    const students = within(dialog).getByRole('group', { name: 'Students' });
    // By name, from the course's roster.
    expect(
      (await within(students).findAllByRole('checkbox')).map((box) => box.parentElement?.textContent),
    ).toEqual(['Ada', 'Ben']);
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));
    expect(await within(dialog).findByText(CHOOSE_STUDENTS)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(within(students).getByLabelText('Ada'));
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));
    expect(await findToast('Assignment created!')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ assignees: [ada.student.id] });
  });

  it("toasts the server's message when creation fails", async () => {
    const { dialog, user } = await openDialog(() => ({
      'POST /api/assignments': apiError(
        403,
        'You can only add assignments to your own courses.',
        'forbidden',
      ),
    }));
    await user.type(within(dialog).getByLabelText('Title'), 'Lab');
    await user.selectOptions(within(dialog).getByLabelText('Course'), 'My Biology (BIO1)');
    fireEvent.change(within(dialog).getByLabelText('Due Date'), { target: { value: '2030-05-01T09:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));
    expect(await findToast('You can only add assignments to your own courses.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Assignment' })).toBeInTheDocument();
  });

  it('warns under Due Date while the date has passed, and still allows it', async () => {
    const { dialog } = await openDialog();
    const due = within(dialog).getByLabelText('Due Date');
    fireEvent.change(due, { target: { value: '2020-05-01T09:30' } });
    expect(due).toHaveAccessibleDescription(PAST_DUE_WARNING);
    expect(within(dialog).getByText(PAST_DUE_WARNING)).toBeVisible();
    expect(due).toBeValid();

    fireEvent.change(due, { target: { value: '2099-05-01T09:30' } });
    expect(within(dialog).queryByText(PAST_DUE_WARNING)).not.toBeInTheDocument();
  });

  it('names a title of only spaces as the field’s own error instead of sending it', async () => {
    const { dialog, user, calls } = await openDialog();
    const title = within(dialog).getByLabelText('Title');
    await user.type(title, '   ');
    await user.selectOptions(within(dialog).getByLabelText('Course'), 'My Biology (BIO1)');
    fireEvent.change(within(dialog).getByLabelText('Due Date'), { target: { value: '2099-05-01T09:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create Assignment' }));

    expect(title).toHaveAccessibleDescription(ENTER_A_TITLE);
    expect(title).toBeInvalid();
    expect(title).toHaveFocus();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(title, 'Lab');
    expect(title).not.toBeInvalid();
  });
});
