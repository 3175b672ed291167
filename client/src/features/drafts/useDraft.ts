import { useMemo, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectAuthStatus } from '../auth/authSlice';
import { fresh, type DraftHandle, type Refs } from './draftRefs';
import { useLazyGetDraftQuery, useSaveDraftMutation } from './draftsApi';
import type { DraftNotice, DraftScreen, DraftStatus } from './draftStatus';
import { useDeviceCopy } from './useDeviceCopy';
import { useDraftControl } from './useDraftControl';
import { useDraftOpening } from './useDraftOpening';
import { useDraftSave } from './useDraftSave';
import { useDraftTyping } from './useDraftTyping';
import { useOtherTabSaves } from './useOtherTabSaves';
import { useSaveTriggers } from './useSaveTriggers';

/**
 * A student's answer that is never lost (DESIGN §12): every typed character is in the server's
 * draft, in the submission, or on this device. Restored from the server or the device when the
 * dialog opens, saved ~1.5 s after typing stops, at least every 10 s while typing, when the tab is
 * hidden and when the connection or the session returns; copied to the device after each pause.
 * One writer by version: a stale save gets the newer text back, and this tab's text is kept aside.
 */
export function useDraft(assignmentId: string | null, userId: string | null) {
  const [content, setContentState] = useState('');
  const [status, setStatus] = useState<DraftStatus>({ kind: 'idle' });
  const [notice, setNotice] = useState<DraftNotice | null>(null);
  const [displaced, setDisplaced] = useState<string | null>(null);
  // State setters never change: the hooks below get them as one object that never does either.
  const show = useMemo<DraftScreen>(
    () => ({ content: setContentState, status: setStatus, notice: setNotice, displaced: setDisplaced }),
    [],
  );
  const [saveDraft] = useSaveDraftMutation();
  const [fetchDraft] = useLazyGetDraftQuery();
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const signedInRef = useRef(signedIn);
  const refs = useRef<Refs>(fresh());
  const [tab] = useState(() => crypto.randomUUID());

  const draft: DraftHandle = { assignmentId, userId, tab, refs, signedInRef, show, saveDraft, fetchDraft };

  const device = useDeviceCopy(draft);
  const { writeDevice } = device;
  const save = useDraftSave(draft, device);
  const { setContent, flush } = useDraftTyping(draft, { save, writeDevice });
  const ready = useDraftOpening(draft, { save, writeDevice });
  useSaveTriggers(draft, { signedIn, save, flush });
  useOtherTabSaves(draft, writeDevice);

  const control = useDraftControl(refs, { setContent, setDisplaced, setStatus, flush, save, writeDevice });
  return { content, setContent, status, notice, setNotice, displaced, ready, flush, ...control };
}
