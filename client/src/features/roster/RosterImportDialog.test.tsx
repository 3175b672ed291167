import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answerApi } from '../../test/api';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { RosterImportDialog } from './RosterImportDialog';

const COURSE = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const FORMULA = "=cmd|' /C calc'!A0";

describe('RosterImportDialog', () => {
  it('checks the pasted CSV first, shows what would change, then invites', async () => {
    const calls = answerApi({
      [`POST /api/courses/${COURSE}/roster-import`]: ({ url }) => ({
        body: {
          dryRun: url.searchParams.get('dryRun') === '1',
          add: [{ email: 'f@school.test', fullName: FORMULA, sourcedId: null }],
          update: [],
          remove: [{ email: 'old@school.test', fullName: 'Old Student', sourcedId: null, status: 'member' }],
          unchanged: 2,
          duplicates: [{ email: 'a@school.test', rows: [2, 5] }],
          skipped: [{ row: 6, reason: 'no e-mail address' }],
        },
      }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<RosterImportDialog courseId={COURSE} onClose={onClose} />);
    expect(screen.getByRole('button', { name: 'Check the file' })).toBeDisabled();
    await user.click(screen.getByLabelText('CSV'));
    await user.paste(`name,email\n"${FORMULA}",f@school.test\n`);
    await user.click(screen.getByRole('button', { name: 'Check the file' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      '1 student to invite, 0 invitations to update, 2 unchanged.',
    );
    // A formula-looking name is shown as the text it is.
    expect(screen.getByText(`${FORMULA} <f@school.test>`)).toBeInTheDocument();
    expect(screen.getByText('Old Student <old@school.test>')).toBeInTheDocument();
    expect(screen.getByText('a@school.test: rows 2, 5')).toBeInTheDocument();
    expect(screen.getByText('Row 6: no e-mail address')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Invite 1 and update 0' }));
    expect(await findToast('Invited 1 student by e-mail.')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    const imports = calls.filter((c) => c.path.endsWith('/roster-import'));
    expect(imports).toHaveLength(2);
    expect(imports[0]!.body).toEqual({ csv: `name,email\n"${FORMULA}",f@school.test\n` });
  });

  it("shows the server's reason when the file cannot be read, and sends both OneRoster files", async () => {
    const calls = answerApi({
      [`POST /api/courses/${COURSE}/roster-import`]: {
        status: 422,
        body: {
          statusCode: 422,
          code: 'roster_invalid',
          error: 'Unprocessable Entity',
          message: 'enrollments.csv holds 2 classes: say which is this course (classSourcedId: a, b).',
        },
      },
    });
    const { user } = renderWithProviders(<RosterImportDialog courseId={COURSE} onClose={() => {}} />);
    await user.click(screen.getByRole('radio', { name: /OneRoster/ }));
    await user.click(screen.getByLabelText('users.csv'));
    await user.paste('sourcedId,givenName,familyName,email\n');
    await user.click(screen.getByLabelText('enrollments.csv'));
    await user.paste('classSourcedId,userSourcedId,role\n');
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    expect(await screen.findByText(/holds 2 classes/)).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/roster-import'))!.body).toEqual({
      users: 'sourcedId,givenName,familyName,email\n',
      enrollments: 'classSourcedId,userSourcedId,role\n',
    });
  });
});
