import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, type Route } from '../../test/api';
import { createCourse } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

const course = createCourse({ title: 'Marine Biology' });

/** A student with no classes opens the Join dialog from the Courses page. */
async function openDialog(join: Record<string, Route>) {
  const view = renderRoute('/courses', 'student', {
    'GET /api/courses': { body: [] },
    ...join,
  });
  await view.user.click(screen.getAllByRole('button', { name: 'Join a class' })[0]!);
  const dialog = screen.getByRole('dialog', { name: 'Join a class' });
  return { ...view, dialog, field: within(dialog).getByLabelText('Class code') };
}

describe('Join a class dialog', () => {
  it('accepts a code in any case with spaces, sends it normalised and lands on the course', async () => {
    const { user, field, calls } = await openDialog({
      'POST /api/courses/join': { body: { course } },
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    });
    await user.type(field, ' abcd efgh{Enter}');

    expect(await screen.findByRole('heading', { level: 1, name: 'Marine Biology' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/courses/join')?.body).toEqual({ code: 'ABCDEFGH' });
    expect(await findToast('You joined Marine Biology')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says what a code looks like, without asking the server, when it cannot be one', async () => {
    const { user, field, dialog, calls } = await openDialog({});
    await user.type(field, 'ABC-10{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'A class code has 8 letters and digits, like ABCD-EFGH.',
    );
    expect(calls.some((c) => c.path === '/api/courses/join')).toBe(false);
  });

  it.each([
    [
      'a wrong or reset code',
      apiError(404, 'No class has that code.', 'join_code_invalid'),
      'No class has that code.',
    ],
    [
      'joining turned off',
      apiError(403, 'The teacher has turned joining off for this class.', 'join_disabled'),
      'The teacher has turned joining off for this class.',
    ],
  ])("shows the server's message for %s and stays open", async (_case, reply, message) => {
    const { user, field, dialog } = await openDialog({ 'POST /api/courses/join': reply });
    await user.type(field, 'ABCD-EFGH{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('says the wait in minutes when the server counts it in seconds', async () => {
    const limited = apiError(429, 'Too many wrong join codes. Try again in 540 seconds.', 'rate_limited');
    const { user, field, dialog } = await openDialog({
      'POST /api/courses/join': { ...(limited as object), headers: { 'Retry-After': '540' } },
    });
    await user.type(field, 'ABCD-EFGH{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Too many wrong join codes. Try again in 9 minutes.',
    );
  });

  it('tells a student who tried too often how long to wait (Retry-After)', async () => {
    const limited = apiError(429, 'Too many wrong codes.', 'rate_limited');
    const { user, field, dialog } = await openDialog({
      'POST /api/courses/join': { ...(limited as object), headers: { 'Retry-After': '540' } },
    });
    await user.type(field, 'ABCD-EFGH{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Too many wrong codes. Try again in 9 minutes.',
    );
  });
});
