import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerApi } from '../../test/api';
import { renderWithProviders } from '../../test/renderWithProviders';
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
});
