import { and, eq, inArray } from 'drizzle-orm';
import { ErrorCode, isCorrectAnswer, isGradable } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Tx } from '../db/client.js';
import { assignments, courseMembers, courses, lessonAnswers, profiles, submissions } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { AppError } from '../http/errors.js';
import { recordAssignment } from '../assignments/service.js';
import { gradedAudience, toSubmission } from '../submissions/views.js';
import type { LessonRow, Standing } from './access.js';
import type { QuestionRow } from './views.js';

/**
 * A lesson into the gradebook (DESIGN §13, §17, §21): a graded assignment due at the lesson's end,
 * a point per question with a right answer (polls count nowhere). Every active member who answered
 * at least one of them gets a grade, the number they got right — accuracy only, never speed —,
 * written as a grade for work with no submission and released at once ('auto', the default): the
 * class has already seen every answer revealed. A member who answered nothing gets no grade, so the
 * gradebook shows their work as missing by its usual rule, which the teacher may excuse.
 * Returns the new assignment's id.
 */
export async function lessonToGradebook(
  tx: Tx,
  record: RecordEvent,
  caller: Caller,
  target: { lesson: LessonRow; standing: Standing; questions: QuestionRow[]; now: Date },
): Promise<string> {
  const { lesson, standing, now } = target;
  const gradable = target.questions.filter((q) => isGradable(q.kind));
  if (gradable.length === 0)
    throw new AppError(
      409,
      ErrorCode.nothingToGrade,
      'No question of this lesson has a right answer (polls have none): end it without the gradebook.',
    );
  const [course] = await tx
    .select({ title: courses.title })
    .from(courses)
    .where(eq(courses.id, lesson.courseId));
  const [row] = await tx
    .insert(assignments)
    .values({
      title: `Live lesson ${now.toISOString().slice(0, 10)}`,
      description: `${gradable.length} question${gradable.length === 1 ? '' : 's'} asked live; a point for each right answer.`,
      dueDate: now,
      maxPoints: gradable.length,
      courseId: lesson.courseId,
      createdAt: now,
      gradeRelease: 'auto',
    })
    .returning();
  const assignment = row!;
  recordAssignment(
    record,
    'assignment:created',
    assignment,
    course?.title ?? '',
    standing.teacherId,
    { submissionCount: 0, needsGrading: 0 },
    now,
  );

  const given = await tx
    .select({
      questionId: lessonAnswers.questionId,
      studentId: lessonAnswers.studentId,
      answer: lessonAnswers.answer,
      fullName: profiles.fullName,
    })
    .from(lessonAnswers)
    .innerJoin(
      courseMembers,
      and(
        eq(courseMembers.courseId, lesson.courseId),
        eq(courseMembers.studentId, lessonAnswers.studentId),
        eq(courseMembers.status, 'active'),
      ),
    )
    .innerJoin(profiles, eq(profiles.id, lessonAnswers.studentId))
    .where(
      inArray(
        lessonAnswers.questionId,
        gradable.map((q) => q.id),
      ),
    );
  const byId = new Map(gradable.map((q) => [q.id, q]));
  const scores = new Map<string, { fullName: string; right: number }>();
  for (const a of given) {
    const q = byId.get(a.questionId)!;
    const score = scores.get(a.studentId) ?? { fullName: a.fullName, right: 0 };
    if (isCorrectAnswer(q.kind, q.correct ?? null, a.answer)) score.right += 1;
    scores.set(a.studentId, score);
  }
  if (scores.size === 0) return assignment.id;
  const rows = await tx
    .insert(submissions)
    .values(
      [...scores].map(([studentId, { right }]) => ({
        assignmentId: assignment.id,
        studentId,
        content: null,
        submittedAt: null,
        grade: right,
        gradedAt: now,
        gradedBy: caller.userId,
        version: 1,
        returnedAt: now,
        returnedGrade: right,
        returnedGradedAt: now,
      })),
    )
    .returning();
  const [grader] = await tx
    .select({ fullName: profiles.fullName })
    .from(profiles)
    .where(eq(profiles.id, caller.userId));
  for (const r of rows) {
    const graded = toSubmission(
      r,
      scores.get(r.studentId)!.fullName,
      assignment.dueDate,
      grader?.fullName ?? null,
    );
    record(
      'submission:graded',
      graded,
      gradedAudience(graded, { id: standing.courseId, teacherId: standing.teacherId }),
    );
  }
  return assignment.id;
}
