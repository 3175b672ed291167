import { screen, waitFor, within } from '@testing-library/react';
import { createAssignment, nextId } from '../../test/factories';
import { describe, expect, it, vi } from 'vitest';
import {
  draftConflict,
  draftUrl,
  openDialog,
  statusLine,
  freshDeviceForEachTest,
} from '../../test/answerDialog';
import { apiError, type Reply } from '../../test/api';
import { renderAssignments } from '../../test/renderRoute';
import { answerConfirm } from '../../test/confirm';
import {
  MAX_CONFLICT_COPIES,
  readConflictCopies,
  readDeviceDraft,
  writeConflictCopy,
  writeDeviceDraft,
} from '../drafts/deviceStore';
import { clockTime } from '../drafts/draftStatus';

/**
 * Two tabs on one draft, and an answer that can no longer be saved (DESIGN §12, issue 12): every
 * typed character stays in the server's draft, the submission or on the device.
 */
freshDeviceForEachTest();

const OTHER_TAB_AT = '2021-03-04T05:06:00.000Z';

describe('another tab saved first', () => {
  it("shows the newer text, keeps this tab's text on the device and offers it back", async () => {
    const puts: unknown[] = [];
    const { user, box, dialog, assignment, me } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: ({ body }) => {
        puts.push(body);
        return puts.length === 1
          ? draftConflict('Text from the other tab', 4, OTHER_TAB_AT)
          : { body: { version: 5, updatedAt: new Date().toISOString() } };
      },
    }));
    await user.type(box, 'Mine');
    await waitFor(() => expect(box).toHaveValue('Text from the other tab'), { timeout: 3000 });
    expect(within(dialog).getByText('Edited in another tab')).toBeInTheDocument();
    // "Saved" with the server's time of the newer save, not this computer's clock.
    expect(statusLine()).toHaveTextContent(`Saved ${clockTime(OTHER_TAB_AT)}`);
    expect(within(dialog).getByTestId('displaced-text')).toHaveTextContent('Mine');
    await waitFor(async () =>
      expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({
        content: 'Text from the other tab',
        baseVersion: 4,
      }),
    );
    expect((await readConflictCopies(me.id, assignment.id)).map((copy) => copy.text)).toEqual(['Mine']);

    // Restoring saves it over the newer version.
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(box).toHaveValue('Mine');
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ content: 'Mine', baseVersion: 4 });
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/));
    expect(within(dialog).queryByTestId('displaced-text')).not.toBeInTheDocument();
    expect(await readConflictCopies(me.id, assignment.id)).toEqual([]);
  });

  it('offers back a device copy typed on an older version when the dialog opens', async () => {
    const id = nextId();
    const assignment = createAssignment({ title: 'Essay' });
    await writeDeviceDraft(id, assignment.id, {
      content: 'Typed offline on version 2',
      baseVersion: 2,
      synced: false,
      savedAt: Date.now(),
    });
    const { box, dialog } = await openDialog(
      (a) => ({
        [`GET ${draftUrl(a)}`]: {
          body: { content: 'Newer, from a laptop', version: 3, updatedAt: OTHER_TAB_AT },
        },
      }),
      assignment,
      { id },
    );
    await waitFor(() => expect(box).toHaveValue('Newer, from a laptop'));
    expect(within(dialog).getByText('Edited in another tab')).toBeInTheDocument();
    expect(within(dialog).getByTestId('displaced-text')).toHaveTextContent('Typed offline on version 2');
    await waitFor(async () =>
      expect((await readConflictCopies(id, assignment.id)).map((copy) => copy.text)).toEqual([
        'Typed offline on version 2',
      ]),
    );
  });

  it("keeps the losing tab's text after the winning tab writes the device copy, and offers it when the dialog opens again", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let serverDraft = { content: 'Text from the other tab', version: 4, updatedAt: OTHER_TAB_AT };
    const { user, box, dialog, assignment, me } = await openDialog((a) => ({
      [`GET ${draftUrl(a)}`]: () => ({ body: serverDraft }),
      [`PUT ${draftUrl(a)}`]: () => draftConflict(serverDraft.content, serverDraft.version, OTHER_TAB_AT),
    }));
    await waitFor(() => expect(box).toHaveValue('Text from the other tab'));
    await user.clear(box);
    await user.type(box, 'Mine, lost to the other tab');
    expect(await within(dialog).findByTestId('displaced-text', {}, { timeout: 4000 })).toHaveTextContent(
      'Mine, lost to the other tab',
    );
    // The winning tab saves on and writes the one device record, knowing nothing of this tab's text.
    serverDraft = { content: 'The other tab, later', version: 5, updatedAt: OTHER_TAB_AT };
    await writeDeviceDraft(me.id, assignment.id, {
      content: serverDraft.content,
      baseVersion: 5,
      synced: true,
      savedAt: Date.now(),
    });
    // This tab goes away ("kept on this device" was its promise); the dialog opens again later.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const card = screen.getByRole('article', { name: assignment.title });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    const again = screen.getByRole('dialog', { name: 'Submit Assignment' });
    await waitFor(() =>
      expect(within(again).getByLabelText('Your Submission')).toHaveValue('The other tab, later'),
    );
    expect(within(again).getByTestId('displaced-text')).toHaveTextContent('Mine, lost to the other tab');
    // Discarded: gone from the device too, and not offered again.
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    await answerConfirm(user, 'Discard text');
    await waitFor(async () => expect(await readConflictCopies(me.id, assignment.id)).toEqual([]));
  }, 20_000);

  it('keeps at most a few conflict copies of one answer, dropping the oldest', async () => {
    const id = nextId();
    const assignmentId = nextId();
    for (let n = 1; n <= MAX_CONFLICT_COPIES + 2; n++) {
      await writeConflictCopy(id, assignmentId, `tab-${n}`, `Text ${n}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    const texts = (await readConflictCopies(id, assignmentId)).map((copy) => copy.text);
    expect(texts).toHaveLength(MAX_CONFLICT_COPIES);
    expect(texts.at(-1)).toBe(`Text ${MAX_CONFLICT_COPIES + 2}`);
    expect(texts).not.toContain('Text 1');
  });
});

describe('an answer that can no longer be saved', () => {
  it('keeps the text on the device when the assignment is gone, and asks with Copy before closing', async () => {
    const { user, box, dialog, assignment, me } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: apiError(404, 'Assignment not found.', 'not_found'),
    }));
    await user.type(box, 'Orphan words');
    expect(
      await within(dialog).findByText('This assignment is no longer available to you', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    // Typing on after it is gone still reaches the device.
    await user.type(box, ' and more');
    await user.keyboard('{Escape}');
    expect(within(dialog).getByText('This text is only on this device')).toBeInTheDocument();
    // Its own notice asks, with Copy: not the app's confirmation.
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Submit Assignment' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close anyway' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(async () =>
      expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({
        content: 'Orphan words and more',
        synced: false,
      }),
    );
  });

  it('keeps unsaved text on the device when the assignment was submitted in another tab', async () => {
    const { user, box, dialog, assignment, me } = await openDialog((a) => ({
      [`PUT ${draftUrl(a)}`]: apiError(409, 'You have already submitted this assignment.'),
    }));
    await user.type(box, 'Words the other tab never had');
    expect(
      await within(dialog).findByText('Submitted in another tab', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(within(dialog).getByText('This text is only on this device')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close anyway' }));
    expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({
      content: 'Words the other tab never had',
      synced: false,
    });
  });
});

describe('typing before the saved draft has arrived', () => {
  /** The answer dialog, its draft's GET held back until `release` is called. */
  async function openWithSlowDraft(draft: Reply) {
    const assignment = createAssignment({ title: 'Essay' });
    const view = renderAssignments('student', {
      'GET /api/assignments': { body: [assignment] },
      [`GET ${draftUrl(assignment)}`]: draft,
      [`PUT ${draftUrl(assignment)}`]: 'pending',
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const answered = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'GET' && request.url.endsWith('/draft')) await held;
      return answered(request);
    });
    const card = await screen.findByRole('article', { name: 'Essay' });
    await view.user.click(within(card).getByRole('button', { name: 'Submit' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
    return { ...view, dialog, box: within(dialog).getByLabelText('Your Submission'), release };
  }

  it('keeps the words when there is no saved draft', async () => {
    const { user, box, release } = await openWithSlowDraft(apiError(404, 'Draft not found.', 'not_found'));
    await user.type(box, 'Quick start');
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(box).toHaveValue('Quick start');
  });

  it('shows the saved draft and offers the early words back', async () => {
    const { user, box, dialog, release } = await openWithSlowDraft({
      body: { content: 'Saved earlier', version: 2, updatedAt: OTHER_TAB_AT },
    });
    await user.type(box, 'Quick start');
    release();
    await waitFor(() => expect(box).toHaveValue('Saved earlier'));
    expect(within(dialog).getByTestId('displaced-text')).toHaveTextContent('Quick start');
  });
});
