import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormModal } from './FormModal';
import { Input } from './Input';

function renderFormModal({ submitting = false } = {}) {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  render(
    <FormModal
      open
      onClose={onClose}
      title="Create Course"
      submitLabel="Create Course"
      submitting={submitting}
      onSubmit={onSubmit}
    >
      <Input label="Course Title" required />
    </FormModal>,
  );
  return { user: userEvent.setup(), onSubmit, onClose };
}

describe('FormModal', () => {
  it('submits its form from the footer button or Enter in a field, once the required fields are filled', async () => {
    const { user, onSubmit } = renderFormModal();
    const dialog = screen.getByRole('dialog', { name: 'Create Course' });
    const submit = screen.getByRole('button', { name: 'Create Course' });
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Course Title'), 'Biology{Enter}');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(dialog).toContainElement(submit);
  });

  it('closes with Cancel', async () => {
    const { user, onClose } = renderFormModal();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('does not submit again while submitting', async () => {
    const { user, onSubmit } = renderFormModal({ submitting: true });
    // Only the button is tried: for Enter in a field, user-event submits the form itself when the
    // submit button sits outside it, where a browser clicks that button (which then refuses).
    await user.type(screen.getByLabelText('Course Title'), 'Biology');
    await user.click(screen.getByRole('button', { name: 'Create Course' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Create Course' })).toHaveAttribute('aria-busy', 'true');
  });
});
