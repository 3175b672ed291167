import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useConfirm } from './ConfirmDialog';

/** A page with one destructive action behind the app's confirmation. */
function Harness() {
  const [confirm, dialog] = useConfirm();
  const [answer, setAnswer] = useState('none yet');
  return (
    <>
      <button
        type="button"
        onClick={() =>
          void confirm({
            title: 'Reset the join code?',
            description: 'The old code stops working at once.',
            confirmLabel: 'Reset code',
          }).then((yes) => setAnswer(yes ? 'confirmed' : 'cancelled'))
        }
      >
        Reset
      </button>
      <p>Answer: {answer}</p>
      {dialog}
    </>
  );
}

async function ask() {
  const user = userEvent.setup();
  render(<Harness />);
  const opener = screen.getByRole('button', { name: 'Reset' });
  await user.click(opener);
  const dialog = screen.getByRole('alertdialog', { name: 'Reset the join code?' });
  return { user, opener, dialog };
}

describe('ConfirmDialog', () => {
  it('is a labelled dialog, focus on Cancel, with the action named on its button', async () => {
    const { dialog } = await ask();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('The old code stops working at once.');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Reset code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'OK' })).not.toBeInTheDocument();
  });

  it('answers true on the action, and gives focus back to what opened it', async () => {
    const { user, opener } = await ask();
    await user.click(screen.getByRole('button', { name: 'Reset code' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('Answer: confirmed')).toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it.each([
    ['Escape', (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}')],
    [
      'Cancel',
      (user: ReturnType<typeof userEvent.setup>) =>
        user.click(screen.getByRole('button', { name: 'Cancel' })),
    ],
    [
      'the X',
      (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Close' })),
    ],
  ])('answers false on %s', async (_how, dismiss) => {
    const { user } = await ask();
    await dismiss(user);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('Answer: cancelled')).toBeInTheDocument();
  });

  it('keeps Tab inside the dialog', async () => {
    const { user, dialog } = await ask();
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});
