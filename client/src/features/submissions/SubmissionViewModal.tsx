import { ErrorCode, type Assignment, type SubmissionView } from '@classwave/shared';
import { FileText } from 'lucide-react';
import { useId } from 'react';
import { apiErrorCode } from '../../api/errors';
import { Button } from '../../components/Button';
import { LoadFailed } from '../../components/LoadFailed';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { workStatusText, WorkStatusPill } from '../grading/WorkStatusBadge';
import { useGetOwnSubmissionQuery } from './submissionsApi';
import { RubricSection } from '../rubrics/RubricSection';
import { FileList } from '../files/FileList';
import './SubmissionViewModal.css';
import { AssignmentFileList } from '../files/AssignmentFileList';

/** A time on a receipt or in the history, in the reader's zone, to the second: "Nov 26, 2026, 17:21:03". */
export function receiptTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

const HISTORY_WORDS = { submitted: 'Submitted', unsubmitted: 'Taken back' } as const;

/**
 * What a student handed in, read-only (DESIGN §17): the text, the receipt (short id and the
 * server's time), the status, the grade and feedback once returned, and every submit and take-back.
 */
export function SubmissionViewModal({
  assignment,
  onClose,
}: {
  assignment: Assignment;
  onClose: () => void;
}) {
  const { data, error, isLoading, refetch } = useGetOwnSubmissionQuery(assignment.id);
  return (
    <Modal
      open
      onClose={onClose}
      title="Your Submission"
      description={assignment.title}
      size="lg"
      initialFocus="title"
      className="submission-view"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {isLoading ? (
        <div className="submission-view__state">
          <Spinner label="Loading your submission" />
        </div>
      ) : data ? (
        <SubmissionDetails assignment={assignment} view={data} />
      ) : apiErrorCode(error) === ErrorCode.noSubmission ? (
        <p className="submission-view__state">You have not submitted this assignment.</p>
      ) : (
        <LoadFailed
          icon={<FileText />}
          title="Your submission could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      )}
    </Modal>
  );
}

function SubmissionDetails({ assignment, view }: { assignment: Assignment; view: SubmissionView }) {
  const textId = useId();
  const feedbackId = useId();
  const historyId = useId();
  const { submission, status, history } = view;
  const statusText = workStatusText({ ...assignment, submission }, status);
  return (
    <div className="submission-view__body">
      <dl className="submission-view__facts">
        <div>
          <dt>Status</dt>
          <dd>
            <WorkStatusPill status={status}>{statusText}</WorkStatusPill>
          </dd>
        </div>
        {submission && (
          <>
            <div>
              <dt>Receipt</dt>
              <dd>
                <code className="submission-view__receipt">{submission.receipt.id}</code>
              </dd>
            </div>
            <div>
              <dt>Submitted</dt>
              <dd>
                <time dateTime={submission.receipt.at}>{receiptTime(submission.receipt.at)}</time>
              </dd>
            </div>
          </>
        )}
        {submission?.grade != null && (
          <div>
            <dt>Grade</dt>
            <dd>
              {submission.grade}/{assignment.maxPoints}
            </dd>
          </div>
        )}
      </dl>

      {submission?.grade != null && submission.feedback && (
        <section aria-labelledby={feedbackId}>
          <h3 id={feedbackId} className="submission-view__heading">
            Teacher feedback
          </h3>
          <p className="submission-view__feedback" dir="auto">
            {submission.feedback}
          </p>
        </section>
      )}

      {submission?.grade != null && (
        <AssignmentFileList assignmentId={assignment.id} kind="feedback" label="Files from your teacher" />
      )}

      {/* Scores marked only once returned: the server sends none while the grade is held (DESIGN §17). */}
      <RubricSection
        assignmentId={assignment.id}
        scores={submission?.grade != null ? (submission.rubricScores ?? null) : null}
      />

      <h3 id={textId} className="submission-view__heading">
        Your answer
      </h3>
      {submission ? (
        // Focusable so a keyboard can scroll a long answer; selectable and copyable, never editable.
        <div className="submission-view__text" role="region" aria-labelledby={textId} tabIndex={0} dir="auto">
          {submission.content}
        </div>
      ) : (
        <p className="submission-view__state">
          You took this submission back; its text is your draft again until you submit.
        </p>
      )}

      {submission?.files && submission.files.length > 0 && (
        <FileList files={submission.files} label="Your files" />
      )}

      <section aria-labelledby={historyId}>
        <h3 id={historyId} className="submission-view__heading">
          History
        </h3>
        <ol className="submission-view__history">
          {history.map((entry, i) => (
            <li key={`${entry.at}-${i}`}>
              <span className="submission-view__event">{HISTORY_WORDS[entry.kind]}</span>{' '}
              <time dateTime={entry.at}>{receiptTime(entry.at)}</time>
              <span className="submission-view__event-receipt">
                {' · receipt '}
                <code>{entry.receiptId}</code>
              </span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
