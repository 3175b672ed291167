import { ErrorCode, LIMITS, type Assignment } from '@classwave/shared';
import { Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useConfirm } from '../../components/ConfirmDialog';
import { Button } from '../../components/Button';
import { FormModal } from '../../components/FormModal';
import { Notice } from '../../components/Notice';
import { formatListDate } from '../../components/dates';
import { Textarea } from '../../components/Textarea';
import { useAssignmentPresence } from '../../realtime/presence';
import { selectProfile } from '../auth/authSlice';
import { queueSubmit } from '../drafts/deviceStore';
import { CloseGuard, copyToClipboard, DisplacedText, QueuedNotice } from '../drafts/DraftNotices';
import { safeToClose } from '../drafts/draftStatus';
import { onSubmitOutcome, sendQueued, type SendOutcome } from '../drafts/submitQueue';
import { useAccessBack } from '../drafts/useAccessBack';
import { useDraft } from '../drafts/useDraft';
import { AttachmentsField } from '../files/AttachmentsField';
import { useAttachments } from '../files/useAttachments';
import { useAwaitingFiles } from './useAwaitingFiles';
import { useQueuedSubmit } from '../drafts/useQueuedSubmit';
import '../grading/grading.css';
import { AnswerStatus } from './AnswerStatus';
import { useGetAssignmentsQuery } from './assignmentsApi';
import { RubricSection } from '../rubrics/RubricSection';
import { DeadlineNotice } from './DeadlineNotice';
import { DueMoved } from './DueMoved';
import './SubmitAssignmentModal.css';
import { useDeadline } from './useDeadline';
import { AssignmentFileList } from '../files/AssignmentFileList';

export const DISCARD_CONFIRMATION =
  'Your latest changes have not reached the server yet. A copy stays on this device.';

/**
 * Submit Assignment (spec §2, DESIGN §12): one text answer that is never lost. The draft is
 * restored and saved as the student types (status line), a submit that cannot be sent at once
 * waits on the device (also across a reload) and goes out with the same Idempotency-Key, and the
 * dialog says at once when the assignment is gone or was submitted in another tab.
 */
export function SubmitAssignmentModal({
  assignment,
  openedWith,
  onClose,
  onSubmitted,
}: {
  /** The assignment as it stands now (live edits included). */
  assignment: Assignment | null;
  /** The assignment as it was when the dialog opened: a moved due date is said, with both dates. */
  openedWith?: Assignment | null;
  onClose: () => void;
  /** Called with the assignment's id once its submission is saved (before the dialog closes). */
  onSubmitted?: (assignmentId: string) => void;
}) {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectProfile)?.id ?? null;
  const assignmentId = assignment?.id ?? null;
  const draft = useDraft(assignmentId, userId);
  const attachments = useAttachments(assignmentId, userId);
  /** Submit was pressed while files were still uploading: it is sent once they are stored. */
  const [awaitingFiles, setAwaitingFiles] = useAwaitingFiles(userId, assignmentId, attachments);
  const { content, setContent, status, notice, setNotice } = draft;
  const { queued, setQueued } = useQueuedSubmit(userId, assignmentId);
  const [sending, setSending] = useState(false);
  const [guarding, setGuarding] = useState(false);
  const [confirm, confirmDialog] = useConfirm();
  const submittedHere = useRef(false);
  /** Why the server refused the last submit pressed here (shown until the next press). */
  const [refused, setRefused] = useState<string | null>(null);
  /** The server said the assignment is closed, whatever this device's estimate of its clock. */
  const [closedByServer, setClosedByServer] = useState(false);
  useEffect(() => {
    setRefused(null);
    setClosedByServer(false);
  }, [assignmentId]);
  const dueDeadline = useDeadline(assignment?.dueDate, assignment?.closesAtDue ?? false);
  const deadline = closedByServer ? ({ kind: 'closed' } as const) : dueDeadline;
  const closed = deadline.kind === 'closed';
  const counterId = useId();
  const typing = useAssignmentPresence(assignmentId);
  const movedFrom =
    assignment && openedWith && openedWith.dueDate !== assignment.dueDate ? openedWith.dueDate : null;

  // The assignment as the live cache has it now: gone (deleted, or the student removed) or submitted elsewhere.
  const { live, listed } = useGetAssignmentsQuery(undefined, {
    skip: assignmentId === null,
    selectFromResult: ({ data }) => ({
      live: data?.find((a) => a.id === assignmentId),
      listed: data !== undefined,
    }),
  });
  const gone = notice === 'gone' || (listed && assignmentId !== null && live === undefined);
  // Our own queued submit landing (sent by this tab's queue or another tab's) is not "elsewhere".
  const submittedElsewhere =
    // A grade for missing work is no submission (DESIGN §17): the student may still submit.
    !submittedHere.current &&
    queued === null &&
    (notice === 'submitted' || live?.submission?.submittedAt != null);

  useEffect(() => {
    if (gone) void draft.stop('gone');
    else if (submittedElsewhere) void draft.stop('submitted');
    // Back in the list (restored to the course): saving resumes by itself (DESIGN §17).
    else void draft.resume();
  }, [gone, submittedElsewhere, draft]);

  useAccessBack(assignment?.courseId, live !== undefined, setNotice);

  function done() {
    draft.finish();
    setQueued(null);
    setSending(false);
    setGuarding(false);
    submittedHere.current = false;
    onClose();
  }

  // Every attempt to send this dialog's submit, by the dialog or by the queue (a retry, a reconnect).
  const outcomeRef = useRef<(outcome: SendOutcome) => void>(() => {});
  useEffect(() => {
    outcomeRef.current = (outcome) => {
      if (outcome.kind === 'submitted') {
        // The files are the submission's now: the device lets its copies go.
        void attachments.handedIn();
        onSubmitted?.(assignmentId!);
        done();
        return;
      }
      setSending(false);
      if (outcome.kind === 'refused') {
        submittedHere.current = false;
        setQueued(null);
        setRefused(outcome.message);
        if (outcome.code === ErrorCode.assignmentClosed) setClosedByServer(true);
        void draft.release();
        if (outcome.status === 403 || outcome.status === 404) setNotice('gone');
      }
    };
  });
  useEffect(
    () =>
      onSubmitOutcome((who, id, outcome) => {
        if (who === userId && id === assignmentId) outcomeRef.current(outcome);
      }),
    [userId, assignmentId],
  );

  // A queued submit another tab sent: the dialog's work is done.
  useEffect(() => {
    if (queued && live?.submission?.submittedAt) {
      onSubmitted?.(assignmentId!);
      done();
    }
    // `done` closes over the latest draft and callbacks; this runs when the submission appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queued, live]);

  async function close() {
    if (queued || sending) return onClose();
    if (!safeToClose(status, content)) {
      // Nowhere else to save it: ask in the dialog, where the text can be copied first.
      if (gone || submittedElsewhere) return setGuarding(true);
      void draft.flush();
      const sure = await confirm({
        title: 'Close anyway?',
        description: DISCARD_CONFIRMATION,
        confirmLabel: 'Close anyway',
        cancelLabel: 'Keep editing',
      });
      if (!sure) return;
    }
    setGuarding(false);
    onClose();
  }

  /** A press that sends nothing still answers (DESIGN §17): it says why, in a toast. */
  function refuse(why: string) {
    toast.error(why);
  }

  // Files done uploading after Submit was pressed: the submit goes now (or says why it cannot).
  useEffect(() => {
    // After a reload the press is remembered (useAwaitingFiles): the answer's text is read first.
    if (!awaitingFiles || attachments.pending > 0 || !draft.ready) return;
    setAwaitingFiles(false);
    void handleSubmit();
    // handleSubmit reads this render's state; this runs when the last file is stored or refused.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [awaitingFiles, attachments.pending, draft.ready]);

  async function handleSubmit() {
    if (!assignment || !userId || sending || queued) return;
    setRefused(null);
    const hasFiles = attachments.items.length > 0;
    if (content.trim() === '' && !hasFiles)
      return refuse('Write your answer or attach a file before submitting it.');
    if (content.length > LIMITS.submissionContent)
      return refuse('Your answer is over the limit: shorten it to submit it.');
    if (gone) return refuse('This assignment is no longer available to you. Your text is still here.');
    if (submittedElsewhere) return refuse('This assignment was already submitted from another tab.');
    if (closed) return refuse('This assignment is closed: it no longer takes submissions.');
    if (attachments.refused > 0) return refuse('Some files could not be uploaded: remove them, then submit.');
    // No receipt before every file is stored (DESIGN §18): the submit waits for the uploads.
    if (attachments.pending > 0) return setAwaitingFiles(true);
    setSending(true);
    // No draft save may race the submit (its 409 would bring a stale copy back to the device).
    const text = await draft.hold();
    if (text === null) {
      setSending(false);
      return refuse(
        draft.stopped()
          ? 'This answer can no longer be submitted here. Your text is still here.'
          : 'Your answer was changed in another tab: check the text, then submit again.',
      );
    }
    // The key is made at the press: this submit, however often it is sent, is one submission.
    const item = {
      assignmentId: assignment.id,
      content: text,
      key: crypto.randomUUID(),
      queuedAt: Date.now(),
      ...(attachments.fileIds.length > 0 ? { fileIds: attachments.fileIds } : {}),
    };
    await queueSubmit(userId, item);
    submittedHere.current = true;
    setQueued({ item, reason: null });
    // The outcome arrives through onSubmitOutcome, like a retry's.
    await sendQueued(dispatch, userId, item);
  }

  const waiting = queued !== null;

  return (
    <>
      <FormModal
        open={assignment !== null}
        onClose={() => void close()}
        size="lg"
        title="Submit Assignment"
        description={
          assignment && (
            <>
              {assignment.title} · {assignment.courseTitle} · Due {formatListDate(assignment.dueDate)} ·{' '}
              {assignment.maxPoints} points
            </>
          )
        }
        submitLabel={waiting || awaitingFiles ? 'Waiting to submit…' : 'Submit Assignment'}
        submitting={sending || waiting || awaitingFiles}
        submitDisabled={closed && !sending && !waiting}
        onSubmit={handleSubmit}
      >
        {assignment && movedFrom && (
          <Notice tone="warning" title="Due date moved" className="due-moved">
            <DueMoved from={movedFrom} to={assignment.dueDate} />
          </Notice>
        )}
        {assignment && assignment.description.trim() !== '' && (
          <section className="submit-brief" aria-label="Instructions">
            <h3 className="submit-brief__title">Instructions</h3>
            <p className="submit-brief__text">{assignment.description}</p>
          </section>
        )}
        {/* The rubric the work will be graded by, read before submitting (DESIGN §17). */}
        <RubricSection assignmentId={assignment?.id} />
        {assignment && <AssignmentFileList assignmentId={assignment.id} kind="materials" label="Materials" />}
        {guarding && <CloseGuard text={content} onClose={onClose} onStay={() => setGuarding(false)} />}
        {gone && (
          <Notice tone="warning" title="This assignment is no longer available to you">
            <p>
              It was deleted, or you were removed from the course. Your text is still here: copy it to keep
              it.
            </p>
            <Button
              variant="secondary"
              size="sm"
              icon={<Copy />}
              onClick={() => void copyToClipboard(content)}
            >
              Copy your answer
            </Button>
          </Notice>
        )}
        {!gone && submittedElsewhere && (
          <Notice tone="info" title="Submitted in another tab">
            This assignment was submitted from another tab or device, so this answer cannot be sent.
          </Notice>
        )}
        {waiting && <QueuedNotice reason={queued.reason} />}
        {assignment && !gone && !submittedElsewhere && !waiting && (
          <DeadlineNotice deadline={deadline} dueDate={assignment.dueDate} content={content} />
        )}
        {refused && !closed && !gone && !waiting && (
          <Notice tone="danger" title="Not submitted">
            {refused} Your text is still here.
          </Notice>
        )}
        {notice === 'conflict' && !gone && !submittedElsewhere && (
          <Notice tone="info" title="Edited in another tab">
            This answer was changed in another tab; the newer text is shown.
          </Notice>
        )}
        {draft.displaced && !waiting && (
          <DisplacedText
            text={draft.displaced}
            onRestore={() => void draft.restoreDisplaced()}
            onDiscard={() => void draft.dismissDisplaced()}
          />
        )}
        <Textarea
          label="Your Submission"
          name="content"
          rows={8}
          required={attachments.items.length === 0}
          readOnly={(submittedElsewhere && !gone) || closed || sending || waiting}
          placeholder="Type your submission here..."
          hint="Saved as you type. Your teacher sees it once you submit; until the due time you can take it back while it is ungraded."
          aria-describedby={counterId}
          value={content}
          onChange={(event) => {
            setContent(event.target.value);
            typing();
          }}
        />
        <AttachmentsField
          attachments={attachments}
          disabled={(submittedElsewhere && !gone) || gone || closed || sending || waiting || awaitingFiles}
          onProblem={(problem) => toast.error(problem)}
        />
        {awaitingFiles && (
          <Notice tone="info" title="Submitting once your files are uploaded">
            {attachments.pending === 1 ? 'One file is' : `${attachments.pending} files are`} still uploading.
            Your answer is handed in, with them, as soon as they are stored.
          </Notice>
        )}
        <AnswerStatus
          status={status}
          length={content.length}
          counterId={counterId}
          refused={refused !== null && !waiting}
        />
      </FormModal>
      {confirmDialog}
    </>
  );
}
