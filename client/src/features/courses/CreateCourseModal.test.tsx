import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerApi, apiError } from '../../test/api';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { BLANK_COURSE_FIELD, CreateCourseModal } from './CreateCourseModal';

afterEach(() => {
  vi.unstubAllGlobals();
});

function openDialog() {
  const calls = answerApi({});
  const view = renderWithProviders(<CreateCourseModal open onClose={() => {}} />);
  return { ...view, calls, dialog: screen.getByRole('dialog', { name: 'Create Course' }) };
}

describe('CreateCourseModal', () => {
  it('names each field that holds only spaces, focuses the first, and sends nothing', async () => {
    const { dialog, user, calls } = openDialog();
    const title = within(dialog).getByLabelText('Course Title');
    const code = within(dialog).getByLabelText('Course Code');
    const description = within(dialog).getByLabelText('Description');
    await user.type(title, '   ');
    await user.type(code, 'BIO1');
    await user.type(description, '  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create Course' }));

    expect(title).toHaveAccessibleDescription(BLANK_COURSE_FIELD.title);
    expect(description).toHaveAccessibleDescription(BLANK_COURSE_FIELD.description);
    expect(title).toBeInvalid();
    expect(code).not.toBeInvalid();
    expect(title).toHaveFocus();
    expect(calls).toEqual([]);
    expect(screen.queryByText('Failed to create course')).not.toBeInTheDocument();

    await user.type(title, 'Biology');
    expect(title).not.toBeInvalid();
    expect(description).toBeInvalid();
  });

  it('says at the code field when the teacher already uses that code, and keeps the dialog open', async () => {
    answerApi({
      'POST /api/courses': apiError(409, 'You already have a course with the code BIO101.'),
    });
    const { user } = renderWithProviders(<CreateCourseModal open onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Create Course' });
    await user.type(within(dialog).getByLabelText('Course Title'), 'Biology');
    await user.type(within(dialog).getByLabelText('Course Code'), 'bio101');
    await user.type(within(dialog).getByLabelText('Description'), 'Cells.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Course' }));

    expect(await findToast('Failed to create course')).toBeInTheDocument();
    const code = within(dialog).getByLabelText('Course Code');
    expect(code).toHaveAccessibleDescription('You already have a course with the code BIO101.');
    expect(code).toBeInvalid();
    expect(code).toHaveFocus();
  });
});
