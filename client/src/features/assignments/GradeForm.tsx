import {
  LIMITS,
  rubricPoints,
  type CurrentGrade,
  type PersonRef,
  type RubricScores,
  type Submission,
} from '@classwave/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { Notice } from '../../components/Notice';
import { Textarea } from '../../components/Textarea';
import { ConflictChoice } from '../grading/ConflictChoice';
import { gradeConflictOf } from '../grading/gradingApi';
import { RubricPicker } from '../rubrics/RubricPicker';
import { useGetRubricQuery } from '../rubrics/rubricsApi';
import {
  useClearMissingGradeMutation,
  useGradeStudentMutation,
  useGradeSubmissionMutation,
} from './assignmentsApi';
import '../grading/grading.css';

const pointsText = (grade: number | null) => (grade === null ? '' : String(grade));

/** What a student with no row yet has: no grade, version 0 (DESIGN §17). */
const NOTHING = { version: 0, grade: null, feedback: null, rubricScores: null } as const;
const NO_SCORES: RubricScores = {};
const scoresKey = (scores: RubricScores | null | undefined) => JSON.stringify(scores ?? NO_SCORES);

/**
 * Points (0 to the assignment's max, whole numbers) and optional feedback for one student's work:
 * a submission, or no submission at all (`submission` null: the grade is one for missing work,
 * DESIGN §17). Every save names the version it started from; a grade given elsewhere meanwhile
 * comes back as a conflict, shown here with "Keep mine" and "Use theirs" (DESIGN §13). A live grade
 * never replaces what is being typed: a notice says it arrived instead.
 */
export function GradeForm({
  submission: given,
  student,
  assignmentId,
  maxPoints,
  onEditedChange,
}: {
  submission: Submission | null;
  student: PersonRef;
  assignmentId: string;
  maxPoints: number;
  /** Told whether the fields hold unsaved changes (the grading view marks such students). */
  onEditedChange?: (edited: boolean) => void;
}) {
  const submission = given ?? NOTHING;
  const maxId = useId();
  const [points, setPoints] = useState(pointsText(submission.grade));
  const [feedback, setFeedback] = useState(submission.feedback ?? '');
  // With a rubric (DESIGN §17), a level per criterion fills the points; typed points that disagree clear the levels.
  const rubric = useGetRubricQuery(assignmentId).data?.rubric ?? null;
  const [scores, setScores] = useState<RubricScores>(submission.rubricScores ?? NO_SCORES);
  // The grade the fields started from: what "unsaved changes" are measured against.
  const [base, setBase] = useState({
    version: submission.version,
    grade: submission.grade,
    feedback: submission.feedback,
    rubricScores: submission.rubricScores,
  });
  const [conflict, setConflict] = useState<CurrentGrade | null>(null);
  const [arrived, setArrived] = useState<Submission | null>(null);
  const [gradeSubmission, bySubmission] = useGradeSubmissionMutation();
  const [gradeStudent, byStudent] = useGradeStudentMutation();
  const [clearGrade, clearing] = useClearMissingGradeMutation();
  const isLoading = bySubmission.isLoading || byStudent.isLoading;

  const edited =
    points !== pointsText(base.grade) ||
    feedback !== (base.feedback ?? '') ||
    scoresKey(scores) !== scoresKey(base.rubricScores);
  useEffect(() => onEditedChange?.(edited), [edited, onEditedChange]);

  // A new version (saved here, or live from another tab) fills the fields without remounting the
  // form, so keyboard focus stays; while the grader has unsaved changes it only says so.
  const [seenVersion, setSeenVersion] = useState(submission.version);
  if (submission.version !== seenVersion) {
    setSeenVersion(submission.version);
    const sameAsTyped =
      points === pointsText(submission.grade) && feedback.trim() === (submission.feedback ?? '');
    if (!edited || sameAsTyped) {
      setBase({
        version: submission.version,
        grade: submission.grade,
        feedback: submission.feedback,
        rubricScores: submission.rubricScores,
      });
      setPoints(pointsText(submission.grade));
      setFeedback(submission.feedback ?? '');
      setScores(submission.rubricScores ?? NO_SCORES);
      setArrived(null);
    } else if (given) {
      setArrived(given);
    }
  }

  async function save(baseVersion: number) {
    const grade = Number.parseInt(points, 10);
    if (Number.isNaN(grade) || grade < 0 || grade > maxPoints) return;
    // Levels that add up to the points go with them; points typed over them grade without the rubric.
    const byRubric = rubric !== null && rubricPoints(rubric, scores) === grade;
    const body = {
      grade,
      feedback: feedback.trim() === '' ? null : feedback.trim(),
      baseVersion,
      ...(rubric ? { rubric: byRubric ? scores : null } : {}),
    };
    try {
      // No submission yet: the grade makes the student's row (a grade for missing work).
      const saved = await (
        given
          ? gradeSubmission({ submissionId: given.id, assignmentId, ...body })
          : gradeStudent({ assignmentId, studentId: student.id, ...body })
      ).unwrap();
      setBase({
        version: saved.version,
        grade: saved.grade,
        feedback: saved.feedback,
        rubricScores: saved.rubricScores,
      });
      setPoints(pointsText(saved.grade));
      setFeedback(saved.feedback ?? '');
      setScores(saved.rubricScores ?? NO_SCORES);
      setConflict(null);
      setArrived(null);
      toast.success('Grade saved');
    } catch (error) {
      const current = gradeConflictOf(error);
      if (current) setConflict(current);
      else toast.error(apiErrorMessage(error, 'Failed to save grade.'));
    }
  }

  /** A grade for missing work can be taken back (a 0 in the wrong row), over the version shown. */
  async function takeBack() {
    try {
      await clearGrade({ assignmentId, studentId: student.id, baseVersion: base.version }).unwrap();
      toast.success(`Grade taken back: ${student.fullName} has no grade for this work.`);
    } catch (error) {
      const current = gradeConflictOf(error);
      if (current) setConflict(current);
      else toast.error(apiErrorMessage(error, 'The grade could not be taken back.'));
    }
  }

  function takeTheirs(current: {
    version: number;
    grade: number | null;
    feedback: string | null;
    rubricScores?: RubricScores | null;
  }) {
    // A conflict's `current` and a live grade carry the levels with the points.
    const rubricScores = current.rubricScores ?? null;
    setBase({ version: current.version, grade: current.grade, feedback: current.feedback, rubricScores });
    setPoints(pointsText(current.grade));
    setFeedback(current.feedback ?? '');
    setScores(rubricScores ?? NO_SCORES);
    setConflict(null);
    setArrived(null);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(base.version);
  }

  return (
    <form
      className="grade-form"
      aria-label={
        given?.submittedAt
          ? `Grade ${student.fullName}'s submission`
          : `Grade ${student.fullName}'s missing work`
      }
      onSubmit={handleSubmit}
    >
      {rubric && (
        <RubricPicker
          rubric={rubric}
          scores={scores}
          name={`rubric-${student.id}`}
          onChange={(next, sum) => {
            setScores(next);
            if (sum !== null) setPoints(String(sum));
          }}
        />
      )}
      <Field props={{ label: 'Points', containerClassName: 'grade-form__points', 'aria-describedby': maxId }}>
        {(control) => (
          <div className="grade-form__points-control">
            <input
              {...control}
              className="field__input"
              type="number"
              inputMode="numeric"
              required
              min={0}
              max={maxPoints}
              step={1}
              value={points}
              onChange={(event) => setPoints(event.target.value)}
            />
            <span id={maxId} className="grade-form__max">
              / {maxPoints}
            </span>
          </div>
        )}
      </Field>
      <Textarea
        label="Feedback"
        containerClassName="grade-form__feedback"
        rows={2}
        maxLength={LIMITS.feedback}
        placeholder="Optional: what went well, what to improve"
        value={feedback}
        onChange={(event) => setFeedback(event.target.value)}
      />
      <Button type="submit" size="sm" className="grade-form__save" loading={isLoading && !conflict}>
        Save grade
      </Button>
      {given && given.submittedAt === null && given.grade !== null && (
        <Button
          variant="ghost"
          size="sm"
          className="grade-form__take-back"
          loading={clearing.isLoading}
          onClick={() => void takeBack()}
        >
          Take back grade
        </Button>
      )}
      {arrived && !conflict && (
        <Notice tone="info" className="grade-form__notice">
          {arrived.gradedBy?.fullName ?? 'Someone'} just graded this{' '}
          {arrived.grade === null ? '' : `${arrived.grade}/${maxPoints}`}. Your unsaved changes are kept.{' '}
          <button type="button" className="link-button" onClick={() => takeTheirs(arrived)}>
            Use theirs
          </button>
        </Notice>
      )}
      {conflict && (
        <div className="grade-form__notice">
          <ConflictChoice
            current={conflict}
            maxPoints={maxPoints}
            mine={points}
            busy={isLoading}
            onKeepMine={() => void save(conflict.version)}
            onUseTheirs={() => takeTheirs(conflict)}
          />
        </div>
      )}
    </form>
  );
}
