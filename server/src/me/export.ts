import { and, asc, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { teaches } from '../courses/teaching.js';
import type { AccountExport, Rubric, RubricScores } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/client.js';
import {
  assignments,
  chatbotConversations,
  courseMembers,
  courses,
  notifications,
  submissionDrafts,
  submissions,
} from '../db/schema.js';
import { accountOf } from './account.js';
import { filesOfUser } from '../files/service.js';
import { ownConversations } from '../conversations/export.js';
import { ownLessonAnswers } from '../lessons/export.js';
import { notBinned } from '../notifications/service.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * "Download my data": the profile, courses, submissions with grades, drafts, the notification
 * inbox, assistant chat, files, posts and comments, and live lessons' answers. Courses
 * are a teacher's own, or every course a student has been a member of (left and removed included:
 * the history is theirs) or has submitted to.
 */
export async function exportAccount(db: Db, caller: Caller, now: Date): Promise<AccountExport> {
  const row = await accountOf(db, caller);

  const work = await db
    .select({ submission: submissions, assignment: assignments })
    .from(submissions)
    .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
    // Work on a binned assignment comes back with it (DESIGN §17); until then it is nowhere.
    // A grade for missing work is the student's once returned; held, it is not there at all (DESIGN §17).
    .where(
      and(
        eq(submissions.studentId, caller.userId),
        isNull(assignments.deletedAt),
        or(isNotNull(submissions.submittedAt), isNotNull(submissions.returnedAt)),
      ),
    )
    .orderBy(asc(submissions.submittedAt), asc(submissions.id));
  const memberships = await db
    .select({ courseId: courseMembers.courseId })
    .from(courseMembers)
    .where(eq(courseMembers.studentId, caller.userId));
  const courseIds = [...new Set([...memberships, ...work.map((w) => w.assignment)].map((r) => r.courseId))];
  const courseRows =
    row.profile.role === 'teacher'
      ? await db.select().from(courses).where(teaches(caller.userId)).orderBy(asc(courses.createdAt))
      : courseIds.length > 0
        ? await db
            .select()
            .from(courses)
            .where(and(inArray(courses.id, courseIds), isNull(courses.deletedAt)))
            .orderBy(asc(courses.createdAt))
        : [];
  const drafts = await db
    .select({ draft: submissionDrafts, assignmentTitle: assignments.title })
    .from(submissionDrafts)
    .innerJoin(assignments, eq(assignments.id, submissionDrafts.assignmentId))
    .where(and(eq(submissionDrafts.studentId, caller.userId), isNull(assignments.deletedAt)))
    .orderBy(asc(submissionDrafts.updatedAt));
  const inbox = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, caller.userId), notBinned))
    .orderBy(desc(notifications.updatedAt), desc(notifications.id));
  const chat = await db
    .select()
    .from(chatbotConversations)
    .where(eq(chatbotConversations.userId, caller.userId))
    .orderBy(asc(chatbotConversations.createdAt));

  return {
    exportedAt: now.toISOString(),
    user: {
      id: row.user.id,
      email: row.user.email,
      emailConfirmedAt: iso(row.user.emailConfirmedAt),
      createdAt: row.user.createdAt.toISOString(),
    },
    profile: { id: row.profile.id, fullName: row.profile.fullName, role: row.profile.role },
    courses: courseRows.map((c) => ({
      id: c.id,
      title: c.title,
      code: c.code,
      description: c.description,
      createdAt: c.createdAt.toISOString(),
    })),
    // A held grade is not the student's yet (DESIGN §13): it leaves with the export once returned,
    // and a returned one changed since leaves as it was returned (§17).
    submissions: work.map(({ submission: s, assignment: a }) => ({
      id: s.id,
      assignmentId: a.id,
      assignmentTitle: a.title,
      courseId: a.courseId,
      content: s.content,
      submittedAt: iso(s.submittedAt),
      grade: s.returnedAt ? s.returnedGrade : null,
      maxPoints: a.maxPoints,
      feedback: s.returnedAt ? s.returnedFeedback : null,
      gradedAt: s.returnedAt ? iso(s.returnedGradedAt) : null,
      rubric: s.returnedAt ? exportedScores(a.rubric, s.returnedRubricScores) : null,
    })),
    drafts: drafts.map(({ draft: d, assignmentTitle }) => ({
      assignmentId: d.assignmentId,
      assignmentTitle,
      content: d.content,
      updatedAt: d.updatedAt.toISOString(),
    })),
    notifications: inbox.map((n) => ({
      kind: n.kind,
      title: n.title,
      body: n.body,
      link: n.link,
      createdAt: n.createdAt.toISOString(),
      readAt: iso(n.readAt),
    })),
    chat: chat.map((c) => ({ question: c.question, answer: c.answer, createdAt: c.createdAt.toISOString() })),
    files: (await filesOfUser(db, caller.userId)).map((f) => ({ ...f, download: `/api/files/${f.id}` })),
    ...(await ownConversations(db, caller.userId)),
    lessonAnswers: await ownLessonAnswers(db, caller.userId),
  };
}

/** Returned rubric scores spelt out, so the export reads without the app: criterion, level, points. */
function exportedScores(
  rubric: Rubric | null,
  scores: RubricScores | null,
): AccountExport['submissions'][number]['rubric'] {
  if (!rubric || !scores) return null;
  return rubric.criteria.flatMap((c) => {
    const level = c.levels.find((l) => l.id === scores[c.id]);
    return level ? [{ criterion: c.title, level: level.title, points: level.points }] : [];
  });
}
