import type { LiveEvent } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { apiError } from '../../test/api';
import { createAssignment, createCourse } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Edit course', () => {
  it('edits from the card, sending only what changed, and the card follows', async () => {
    const { user, calls } = renderRoute('/courses', 'teacher', (me) => {
      const course = createCourse({
        title: 'Biology',
        code: 'BIO1',
        teacherId: me.id,
        teacher: { id: me.id, fullName: me.fullName },
      });
      return {
        'GET /api/courses': { body: [course] },
        [`PATCH /api/courses/${course.id}`]: ({ body }) => ({ body: { ...course, ...(body as object) } }),
      };
    });
    const card = await screen.findByRole('article', { name: 'Biology' });
    await user.click(within(card).getByRole('button', { name: 'Edit course' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Course' });
    expect(within(dialog).getByLabelText('Course Code')).toHaveValue('BIO1');
    const title = within(dialog).getByLabelText('Course Title');
    await user.clear(title);
    await user.type(title, 'Marine Biology');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Course updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ title: 'Marine Biology' });
    expect(await screen.findByRole('article', { name: 'Marine Biology' })).toBeInTheDocument();
  });

  it('turns off counting missing work as zero (DESIGN §17), sending only that', async () => {
    const { user, calls } = renderRoute('/courses', 'teacher', (me) => {
      const course = createCourse({
        title: 'Biology',
        teacherId: me.id,
        teacher: { id: me.id, fullName: me.fullName },
      });
      return {
        'GET /api/courses': { body: [course] },
        [`PATCH /api/courses/${course.id}`]: ({ body }) => ({ body: { ...course, ...(body as object) } }),
      };
    });
    const card = await screen.findByRole('article', { name: 'Biology' });
    await user.click(within(card).getByRole('button', { name: 'Edit course' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Course' });
    const zero = within(dialog).getByRole('checkbox', { name: 'Missing work counts as 0 in totals' });
    expect(zero).toBeChecked();
    await user.click(zero);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Course updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ missingCountsAsZero: false });
  });

  it('says at the Course Code field when the code is taken (409)', async () => {
    const { user } = renderRoute('/courses', 'teacher', (me) => {
      const course = createCourse({
        title: 'Biology',
        code: 'BIO1',
        teacherId: me.id,
        teacher: { id: me.id, fullName: me.fullName },
      });
      return {
        'GET /api/courses': { body: [course] },
        [`PATCH /api/courses/${course.id}`]: apiError(409, 'You already have a course with the code CHEM1.'),
      };
    });
    const card = await screen.findByRole('article', { name: 'Biology' });
    await user.click(within(card).getByRole('button', { name: 'Edit course' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Course' });
    const code = within(dialog).getByLabelText('Course Code');
    await user.clear(code);
    await user.type(code, 'CHEM1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription('You already have a course with the code CHEM1.'),
    );
    expect(code).toHaveFocus();
  });

  it("gives the course's own teacher Edit and Gradebook on its page, with N to grade, and nobody else", async () => {
    renderRoute('/courses/00000000-0000-4000-8000-00000000c0de', 'teacher', (me) => {
      const course = createCourse({
        id: '00000000-0000-4000-8000-00000000c0de',
        title: 'Biology',
        teacherId: me.id,
        teacher: { id: me.id, fullName: me.fullName },
      });
      return {
        [`GET /api/courses/${course.id}`]: {
          body: {
            course,
            assignments: [
              createAssignment({ title: 'Lab', courseId: course.id, needsGrading: 3, submissionCount: 3 }),
            ],
          },
        },
        [`GET /api/courses/${course.id}/members`]: { body: [] },
      };
    });
    expect(await screen.findByRole('link', { name: 'Gradebook' })).toHaveAttribute(
      'href',
      '/courses/00000000-0000-4000-8000-00000000c0de/gradebook',
    );
    expect(screen.getByRole('button', { name: 'Edit course' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Lab/ })).toHaveTextContent('3 to grade');
  });

  it('a member sees a course:updated title at once, and no teacher tools', async () => {
    const course = createCourse({ id: '00000000-0000-4000-8000-00000000beef', title: 'Biology' });
    const { store } = renderRoute(`/courses/${course.id}`, 'student', {
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    });
    await screen.findByRole('heading', { level: 1, name: 'Biology' });
    expect(screen.queryByRole('link', { name: 'Gradebook' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit course' })).not.toBeInTheDocument();
    const event: LiveEvent<'course:updated'> = {
      id: 1,
      type: 'course:updated',
      at: new Date().toISOString(),
      data: { ...course, title: 'Marine Biology' },
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Marine Biology' })).toBeInTheDocument();
  });
});
