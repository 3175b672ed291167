import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { Input } from './Input';
import { Modal } from './Modal';

function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Create Course
      </button>
      <Modal
        open={open}
        title="Create Course"
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </>
        }
      >
        <Input label="Course Title" />
      </Modal>
    </>
  );
}

async function openModal() {
  const user = userEvent.setup();
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  await user.click(screen.getByRole('button', { name: 'Create Course' }));
  return { user, onClose, dialog: screen.getByRole('dialog', { name: 'Create Course' }) };
}

describe('Modal', () => {
  it('is a labelled modal dialog that starts with focus on its first field', async () => {
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByLabelText('Course Title')).toHaveFocus();
  });

  it('closes on Escape and returns focus to the button that opened it', async () => {
    const { user, onClose } = await openModal();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Course' })).toHaveFocus();
  });

  it('closes on Escape even when focus has dropped to the page body', async () => {
    const { user, onClose } = await openModal();
    // What happens when the focused element is removed or disabled.
    (document.activeElement as HTMLElement).blur();
    expect(document.body).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a click on the backdrop', async () => {
    const { user, onClose } = await openModal();
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays open on a click inside the dialog', async () => {
    const { user, onClose, dialog } = await openModal();
    await user.click(screen.getByText('Create Course', { selector: 'h2' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(dialog).toBeInTheDocument();
  });

  it('closes with its X button', async () => {
    const { user, onClose } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user } = await openModal();
    const close = screen.getByRole('button', { name: 'Close' });
    const field = screen.getByLabelText('Course Title');
    const save = screen.getByRole('button', { name: 'Save' });

    await user.tab(); // Cancel
    await user.tab(); // Save, the last element
    expect(save).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(field).toHaveFocus();
  });

  it('renders nothing while closed', () => {
    render(<Modal open={false} title="Hidden" onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
