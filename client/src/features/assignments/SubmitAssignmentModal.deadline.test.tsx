import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { draftUrl, freshDeviceForEachTest, openDialog, statusLine, submitUrl } from '../../test/answerDialog';
import { apiError } from '../../test/api';
import { createAssignment } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';

/**
 * The due time seen from the answer dialog (DESIGN §17, issue 25 item 7): a closing assignment
 * warns before it closes and says when it has, a refused submit is never "waiting to submit", and
 * an overdue one says the work will be late.
 */
freshDeviceForEachTest();

const savedDraft = { body: { version: 1, updatedAt: new Date().toISOString() } };
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const submitButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Submit Assignment' });

describe('an assignment that closes at its due time', () => {
  it('says so once it closes while the dialog is open, disables Submit and keeps the text to copy', async () => {
    const assignment = createAssignment({ title: 'Essay', closesAtDue: true, dueDate: inMs(6000) });
    const { user, box, dialog } = await openDialog(
      (a) => ({ [`PUT ${draftUrl(a)}`]: savedDraft }),
      assignment,
    );
    expect(within(dialog).getByText('Closes in less than a minute')).toBeInTheDocument();
    await user.type(box, 'Almost done');
    expect(await within(dialog).findByText('This assignment is closed', {}, { timeout: 8000 })).toBeVisible();
    expect(within(dialog).queryByText('Closes in less than a minute')).not.toBeInTheDocument();
    expect(submitButton(dialog)).toBeDisabled();
    expect(box).toHaveValue('Almost done');
    expect(box).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('button', { name: 'Copy your answer' })).toBeInTheDocument();
  }, 15_000);

  it('shows a submit the server refused as closed as refused, not waiting, with Submit disabled', async () => {
    const assignment = createAssignment({ title: 'Essay', closesAtDue: true });
    const { user, box, dialog } = await openDialog(
      (a) => ({
        [`PUT ${draftUrl(a)}`]: savedDraft,
        [`POST ${submitUrl(a)}`]: apiError(409, 'This assignment is closed.', 'assignment_closed'),
      }),
      assignment,
    );
    await user.type(box, 'Too late by a second');
    await user.click(submitButton(dialog));
    expect(await findToast('This assignment is closed.', { timeout: 5000 })).toBeInTheDocument();
    // Led by the refusal, then where the text is: the draft save the submit held back goes now.
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Not submitted · Saved \d\d:\d\d$/));
    expect(statusLine()).not.toHaveTextContent(/waiting to submit/i);
    expect(within(dialog).getByText('This assignment is closed')).toBeInTheDocument();
    expect(submitButton(dialog)).toBeDisabled();
    expect(box).toHaveValue('Too late by a second');
  }, 15_000);

  it('warns 10 minutes before it closes, and again 1 minute before', async () => {
    const assignment = createAssignment({ title: 'Essay', closesAtDue: true, dueDate: inMs(65_000) });
    const { dialog } = await openDialog(() => ({}), assignment);
    expect(
      within(dialog).getByText('Closes in less than 10 minutes').closest('[role="alert"]'),
    ).not.toBeNull();
    expect(
      await within(dialog).findByText('Closes in less than a minute', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText('Closes in less than 10 minutes')).not.toBeInTheDocument();
  }, 15_000);

  it('says nothing about closing when more than 10 minutes are left', async () => {
    const assignment = createAssignment({ title: 'Essay', closesAtDue: true, dueDate: inMs(11 * 60_000) });
    const { dialog } = await openDialog(() => ({}), assignment);
    expect(within(dialog).queryByText(/Closes in/)).not.toBeInTheDocument();
    expect(submitButton(dialog)).toBeEnabled();
  });
});

describe('an overdue assignment that still takes work', () => {
  it('says the work will be marked late, and still submits', async () => {
    const assignment = createAssignment({ title: 'Essay', dueDate: inMs(-3600_000) });
    const { dialog } = await openDialog(() => ({}), assignment);
    expect(within(dialog).getByText('Past due — your work will be marked late')).toBeInTheDocument();
    expect(submitButton(dialog)).toBeEnabled();
    expect(screen.queryByText('This assignment is closed')).not.toBeInTheDocument();
  });
});
