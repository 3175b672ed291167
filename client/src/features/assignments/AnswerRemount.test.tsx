import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { apiError, answerApi } from '../../test/api';
import { draftUrl, freshDeviceForEachTest } from '../../test/answerDialog';
import { createAssignment, signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { AssignmentsPage } from './AssignmentsPage';

freshDeviceForEachTest();

let remount: () => void = () => {};
/** The Assignments page as the router shows it, which the test can make React build anew. */
function RemountablePage() {
  const [generation, setGeneration] = useState(0);
  remount = () => setGeneration((g) => g + 1);
  return <AssignmentsPage key={generation} />;
}

// Issue 25 (item 10): under load the Assignments page was built anew while a student typed, around a
// token refresh; the dialog closed and the keystrokes of that moment were lost.
describe('the answer dialog when the page is built anew', () => {
  it('opens again with every character typed, even those the device copy had not written yet', async () => {
    const essay = createAssignment({ title: 'Essay' });
    const saves: unknown[] = [];
    const calls = answerApi({
      'GET /api/courses': { body: [] },
      'GET /api/assignments': { body: [essay] },
      [`GET ${draftUrl(essay)}`]: apiError(404, 'Draft not found.', 'not_found'),
      [`PUT ${draftUrl(essay)}`]: ({ body }) => {
        saves.push(body);
        return {
          body: {
            content: (body as { content: string }).content,
            version: saves.length,
            updatedAt: new Date().toISOString(),
          },
        };
      },
    });
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/assignments" element={<RemountablePage />} />
      </Routes>,
      { route: '/assignments', preloadedState: { auth: signedInAuth({ role: 'student' }) } },
    );
    const card = await screen.findByRole('article', { name: 'Essay' });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    const box = within(screen.getByRole('dialog', { name: 'Submit Assignment' })).getByLabelText(
      'Your Submission',
    );
    await waitFor(() => expect(box).toBeEnabled());
    await user.type(box, 'Every word counts');
    // At once: before the device copy (300 ms) and the server save (1.5 s) of the last keystrokes.
    act(() => remount());

    const again = within(await screen.findByRole('dialog', { name: 'Submit Assignment' })).getByLabelText(
      'Your Submission',
    );
    expect(again).not.toBe(box);
    await waitFor(() => expect(again).toHaveValue('Every word counts'));
    // And the text reaches the server from the dialog opened again.
    await waitFor(() => expect(saves.at(-1)).toMatchObject({ content: 'Every word counts' }), {
      timeout: 4000,
    });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('starts closed after the dialog was closed', async () => {
    const essay = createAssignment({ title: 'Essay' });
    answerApi({
      'GET /api/courses': { body: [] },
      'GET /api/assignments': { body: [essay] },
      [`GET ${draftUrl(essay)}`]: apiError(404, 'Draft not found.', 'not_found'),
    });
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/assignments" element={<RemountablePage />} />
      </Routes>,
      { route: '/assignments', preloadedState: { auth: signedInAuth({ role: 'student' }) } },
    );
    const card = await screen.findByRole('article', { name: 'Essay' });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    act(() => remount());
    await screen.findByRole('article', { name: 'Essay' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
