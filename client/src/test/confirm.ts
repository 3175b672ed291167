import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Answers the app's confirmation (ConfirmDialog, DESIGN §17) by clicking `button` (the action's
 * name, or 'Cancel'), checking first that it asks `description` when given.
 */
export async function answerConfirm(
  user: { click: (element: Element) => Promise<void> },
  button: string,
  description?: string,
): Promise<void> {
  const dialog = await screen.findByRole('alertdialog');
  if (description !== undefined) expect(dialog).toHaveAccessibleDescription(description);
  await user.click(within(dialog).getByRole('button', { name: button }));
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
}
