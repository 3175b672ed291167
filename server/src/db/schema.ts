import { sql } from 'drizzle-orm';
import type { Rubric, RubricScores } from '@classwave/shared';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id (never wraps around); read as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
/** Which transactions were still running at a moment (`xmin:xmax:xip_list`). */
const pgSnapshot = customType<{ data: string; driverData: string }>({ dataType: () => 'pg_snapshot' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored as given; uniqueness and look-ups are case-insensitive. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    role: text('role', { enum: ['student', 'teacher'] }).notNull(),
  },
  (t) => [check('profiles_role_check', sql`${t.role} in ('student', 'teacher')`)],
);

/** A signed-in session (one per sign-in); access tokens carry its id, so revoking it stops them at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    /** The browser's User-Agent at sign-in (cut to 512 characters), shown as the device in Settings. */
    userAgent: text('user_agent'),
    /**
     * Sign-in or the last refresh, at most once a minute: never written per request, because the
     * request path is the benchmarked hot path and a refresh is what a live tab does every few minutes.
     */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Rotating refresh tokens, stored hashed. Each refresh replaces the token with its child; a token
 * presented after it was replaced (outside a short grace period) revokes the whole session.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    createdAt: createdAt(),
    /** Set when this token was exchanged for its child. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('refresh_tokens_session_id_idx').on(t.sessionId),
    index('refresh_tokens_user_id_idx').on(t.userId),
  ],
);

export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    /** Where the link sends the user after use; checked against APP_ORIGIN when stored and when used. */
    redirectTo: text('redirect_to').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('email_tokens_user_id_idx').on(t.userId),
    check('email_tokens_purpose_check', sql`${t.purpose} in ('verify_email', 'reset_password')`),
  ],
);

export const courses = pgTable(
  'courses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    code: text('code').notNull(),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    /** 8 characters of JOIN_CODE_ALPHABET, stored without the dash (DESIGN §11). */
    joinCode: text('join_code').notNull(),
    /** The teacher can turn joining by code off without changing the code. */
    joinEnabled: boolean('join_enabled').notNull().default(true),
    /** Missing work past due counts 0 points in the totals and the CSV's Total Possible (DESIGN §17). */
    missingCountsAsZero: boolean('missing_counts_as_zero').notNull().default(true),
    /** When the teacher deleted it into the bin (DESIGN §17); null while live. Every read skips binned rows. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Who binned it (the teacher), kept for the bin's listing. */
    deletedBy: uuid('deleted_by').references(() => profiles.id, { onDelete: 'set null' }),
    /**
     * When its owner archived it (DESIGN §20): read-only, out of the course lists, in "Past classes";
     * null while current. Not the bin: nothing is hidden from its teachers and members.
     */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    index('courses_teacher_id_idx').on(t.teacherId),
    index('courses_created_at_idx').on(t.createdAt.desc(), t.id),
    uniqueIndex('courses_join_code_key').on(t.joinCode),
    check('courses_join_code_check', sql`${t.joinCode} ~ '^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$'`),
  ],
);

/**
 * Who is in a course (DESIGN §11). A row is kept when a student leaves or is removed, so restoring
 * or re-joining brings the same membership (and their submissions, which are never deleted) back.
 */
export const courseMembers = pgTable(
  'course_members',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['active', 'left', 'removed'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the student left or was removed; null while active. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'course_members_pkey', columns: [t.courseId, t.studentId] }),
    // A student's courses (visibility on every read, rooms at socket connect).
    index('course_members_student_id_idx').on(t.studentId, t.courseId),
    check('course_members_status_check', sql`${t.status} in ('active', 'left', 'removed')`),
  ],
);

/**
 * A course's co-teachers (DESIGN §20): beside its owner (`courses.teacher_id`), up to
 * MAX_CO_TEACHERS teacher accounts who do all the owner does except delete or archive the course,
 * remove the owner or transfer it. A removed co-teacher's row is deleted: nothing is kept for them.
 */
export const courseTeachers = pgTable(
  'course_teachers',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** Who invited them (the owner); null once that account is gone. */
    invitedBy: uuid('invited_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'course_teachers_pkey', columns: [t.courseId, t.teacherId] }),
    // A teacher's co-taught courses (every read's "teaches this course", the course list).
    index('course_teachers_teacher_id_idx').on(t.teacherId, t.courseId),
  ],
);

/**
 * A student invited to a course by a roster import (DESIGN §20): mailed the course's join link
 * once. Keyed by course and address (lower-cased), so importing the same file again changes
 * nothing; `source_id` is OneRoster's sourcedId, which finds the person again after a rename or a
 * new address.
 */
export const rosterInvites = pgTable(
  'roster_invites',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** Lower-cased and trimmed: the key. */
    email: text('email').notNull(),
    /** As the file had it; shown as text, never evaluated. */
    fullName: text('full_name').notNull(),
    sourceId: text('source_id'),
    invitedBy: uuid('invited_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'roster_invites_pkey', columns: [t.courseId, t.email] }),
    index('roster_invites_source_idx').on(t.courseId, t.sourceId),
  ],
);

/**
 * An invitation to co-teach, mailed as a link with a single-use token (stored hashed, like the
 * account e-mails' tokens). Accepting sets `accepted_at`; inviting the same address again replaces
 * the open invitation (one open invitation per course and address).
 */
export const teacherInvites = pgTable(
  'teacher_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The address invited, as typed (trimmed); matched case-insensitively. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it was accepted (then the token is spent), and by whom. */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [index('teacher_invites_course_id_idx').on(t.courseId, t.createdAt)],
);

/**
 * A course's grade categories with weights (DESIGN §17), in the teacher's order. Weights are whole
 * percents adding up to 100 (checked by the service, as the list is written whole).
 */
export const gradeCategories = pgTable(
  'grade_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    weight: integer('weight').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    index('grade_categories_course_id_idx').on(t.courseId, t.position),
    check('grade_categories_weight_check', sql`${t.weight} between 0 and 100`),
  ],
);

export const assignments = pgTable(
  'assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    dueDate: timestamp('due_date', { withTimezone: true }).notNull(),
    maxPoints: integer('max_points').notNull().default(100),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    /** 'auto': a grade reaches the student when given; 'manual': when the teacher returns it (DESIGN §13). */
    gradeRelease: text('grade_release', { enum: ['auto', 'manual'] })
      .notNull()
      .default('auto'),
    /** Refuse submissions after the due time (409 assignment_closed). */
    closesAtDue: boolean('closes_at_due').notNull().default(false),
    /** When the teacher deleted it into the bin (DESIGN §17); null while live. Every read skips binned rows. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Who binned it (the teacher), kept for the bin's listing. */
    deletedBy: uuid('deleted_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** Its grade category, one of its course's (checked by the service); a deleted category leaves none. */
    categoryId: uuid('category_id').references(() => gradeCategories.id, { onDelete: 'set null' }),
    /** The assignment's own rubric snapshot (DESIGN §17), null without one; ids are stable. */
    rubric: jsonb('rubric').$type<Rubric>(),
  },
  (t) => [
    index('assignments_category_id_idx').on(t.categoryId),
    index('assignments_course_id_due_date_idx').on(t.courseId, t.dueDate),
    index('assignments_due_date_idx').on(t.dueDate),
    check('assignments_max_points_check', sql`${t.maxPoints} > 0`),
    check('assignments_grade_release_check', sql`${t.gradeRelease} in ('auto', 'manual')`),
  ],
);

export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /**
     * The student's answer and when they handed it in; both null on a graded row with no submission
     * (a grade for missing work, DESIGN §17), until the student submits after all and fills them in.
     */
    content: text('content'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).defaultNow(),
    grade: integer('grade'),
    feedback: text('feedback'),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    /** Grows by one with every grade write; a write names the version it started from (DESIGN §13). */
    version: integer('version').notNull().default(0),
    /** When a grade last reached the student; null until one has (DESIGN §13). */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /**
     * What the student was last given (DESIGN §17): the grade, feedback and grading time as they were
     * returned. Every view of the student's reads these, never the working grade above: on 'manual' a
     * returned grade changed afterwards is held again (graded_at > returned_at) and the student keeps
     * seeing the one returned before, until the teacher returns the new one.
     */
    returnedGrade: integer('returned_grade'),
    returnedFeedback: text('returned_feedback'),
    returnedGradedAt: timestamp('returned_graded_at', { withTimezone: true }),
    /** The level chosen per criterion of the assignment's rubric, with the grade (DESIGN §17); null otherwise. */
    rubricScores: jsonb('rubric_scores').$type<RubricScores>(),
    /** The scores as last returned, beside the returned grade: what the student sees. */
    returnedRubricScores: jsonb('returned_rubric_scores').$type<RubricScores>(),
    /** Who wrote the grade last. */
    gradedBy: uuid('graded_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** The student's Idempotency-Key for the POST that made it (DESIGN §12): a repeat answers this row. */
    idempotencyKey: uuid('idempotency_key'),
  },
  (t) => [
    uniqueIndex('submissions_assignment_student_key').on(t.assignmentId, t.studentId),
    uniqueIndex('submissions_student_idempotency_key').on(t.studentId, t.idempotencyKey),
    index('submissions_assignment_submitted_at_idx').on(t.assignmentId, t.submittedAt.desc()),
    index('submissions_student_id_idx').on(t.studentId),
    check('submissions_grade_check', sql`${t.grade} is null or ${t.grade} >= 0`),
    // No submission: no answer either, and the row is there only for its grade.
    check(
      'submissions_missing_work_check',
      sql`(${t.submittedAt} is null) = (${t.content} is null) and (${t.submittedAt} is not null or ${t.grade} is not null)`,
    ),
  ],
);

/**
 * The history of a student's work on an assignment (DESIGN §17): one row per submit and per
 * unsubmit, written in the same transaction. It outlives the submission it names (an unsubmit
 * deletes that row), so `submission_id` is a plain uuid, not a reference: a receipt id the
 * student was once given stays readable in their history.
 */
export const submissionEvents = pgTable(
  'submission_events',
  {
    /** Grows with every row: the history's order when two rows share a time. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** The submission made or taken back (its receipt id). */
    submissionId: uuid('submission_id').notNull(),
    kind: text('kind', { enum: ['submitted', 'unsubmitted'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('submission_events_assignment_student_idx').on(t.assignmentId, t.studentId, t.at),
    index('submission_events_student_id_idx').on(t.studentId),
    check('submission_events_kind_check', sql`${t.kind} in ('submitted', 'unsubmitted')`),
  ],
);

/** A student excused from an assignment (DESIGN §13): a row while excused, none otherwise. */
export const excusals = pgTable(
  'excusals',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'excusals_pkey', columns: [t.assignmentId, t.studentId] }),
    index('excusals_student_id_idx').on(t.studentId),
  ],
);

/** A student's unsent answer (DESIGN §12): one per student and assignment, one writer by version. */
export const submissionDrafts = pgTable(
  'submission_drafts',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    /** Grows by one with every save; a save names the version it started from. */
    version: integer('version').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.studentId] }),
    index('submission_drafts_student_id_idx').on(t.studentId),
    check('submission_drafts_version_check', sql`${t.version} > 0`),
  ],
);

export const liveClasses = pgTable(
  'live_classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('live_classes_course_id_idx').on(t.courseId),
    index('live_classes_scheduled_at_idx').on(t.scheduledAt),
  ],
);

export const chatbotConversations = pgTable(
  'chatbot_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('chatbot_conversations_user_id_idx').on(t.userId, t.createdAt)],
);

/** The real-time log: every event is written with the change it reports, then published after commit. */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    /** The rooms that may see this event, e.g. `user:<id>`, `role:student`. */
    audience: text('audience').array().notNull(),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
    /** The writing transaction. */
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /**
     * The transactions still running when this event was written: an event with a smaller id can
     * commit after this one only if its transaction is one of them (replay.ts).
     */
    snapshot: pgSnapshot('snapshot')
      .notNull()
      .default(sql`pg_current_snapshot()`),
  },
  (t) => [
    index('events_created_at_idx').on(t.createdAt),
    index('events_audience_idx').using('gin', t.audience),
    index('events_xid_idx').on(t.xid),
  ],
);

/**
 * A user's inbox (DESIGN §14), kept 90 days. Timed kinds (due_soon, assignment_closed) are unique per
 * user and assignment, so a job that runs twice can never store one twice.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    link: text('link').notNull(),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    assignmentId: uuid('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    count: integer('count').notNull().default(1),
    createdAt: createdAt(),
    /** When it last changed (a batch grew); the inbox is ordered by it. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** False when it was made inside the user's quiet hours: the tabs list it but do not toast. */
    alert: boolean('alert').notNull().default(true),
  },
  (t) => [
    index('notifications_user_updated_idx').on(t.userId, t.updatedAt.desc(), t.id),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index('notifications_updated_at_idx').on(t.updatedAt),
    index('notifications_batch_idx').on(t.userId, t.assignmentId, t.kind, t.createdAt.desc()),
    uniqueIndex('notifications_timed_key')
      .on(t.userId, t.kind, t.assignmentId)
      .where(sql`${t.kind} in ('due_soon', 'assignment_closed')`),
  ],
);

/**
 * Timed work (due-soon reminders, "closed" notices, held e-mails, retention). Every process polls it
 * with FOR UPDATE SKIP LOCKED; a job is claimed, run and marked done in one transaction, so a crash
 * runs it again and never half-applies it. `key` names the job for de-duplication and rescheduling.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('jobs_key_key').on(t.key),
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.doneAt} is null`),
  ],
);

/** Per-user notification settings (quiet hours are opt-in) and the personal calendar feed token. */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  quietEnabled: boolean('quiet_enabled').notNull().default(false),
  quietStart: text('quiet_start').notNull().default('21:00'),
  quietEnd: text('quiet_end').notNull().default('07:00'),
  timeZone: text('time_zone').notNull().default('UTC'),
  /**
   * Whether the user picked `timeZone` by hand (Settings); until then it follows the zone their
   * browser reports at each sign-in (PUT /api/me/time-zone), and UTC before it ever did.
   */
  timeZoneChosen: boolean('time_zone_chosen').notNull().default(false),
  email: boolean('email').notNull().default(false),
  /** The secret in the personal ICS feed's URL; a reset replaces it, so the old URL answers 404. */
  calendarToken: text('calendar_token').unique(),
});

/** The ICS SEQUENCE of an assignment: grows on every change of it (rescheduleAssignment). */
export const assignmentRevisions = pgTable('assignment_revisions', {
  assignmentId: uuid('assignment_id')
    .primaryKey()
    .references(() => assignments.id, { onDelete: 'cascade' }),
  sequence: integer('sequence').notNull().default(0),
});

/**
 * Attachments (DESIGN §18): one row per upload, made pending (with its declared size, checked
 * against the limits and the uploader's quota) before a byte is stored, ready once every byte is
 * and its type was sniffed. The parents are nulled rather than cascaded when an account, a course
 * or an assignment is deleted for good: the files module's sweep then removes the bytes and the row.
 */
export const files = pgTable(
  'files',
  {
    /** Also the tus upload's id and the storage key. */
    id: uuid('id').primaryKey(),
    uploaderId: uuid('uploader_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** assignment | submission | feedback | post (comment later, DESIGN §19). */
    purpose: text('purpose').notNull(),
    /** The assignment it belongs to; null on a post's file. */
    targetId: uuid('target_id').references(() => assignments.id, { onDelete: 'set null' }),
    /** The student whose work (submission) or feedback it is; null on materials. */
    studentId: uuid('student_id').references(() => profiles.id, { onDelete: 'set null' }),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    /** The submission that handed it in (a submit's fileIds); null while the student may still remove it. */
    submissionId: uuid('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    /**
     * A post's file (DESIGN §19): the post it went out with; null while it waits in the composer
     * (uploaded before the post exists, attached by the post's create).
     */
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    declaredSize: bigint('declared_size', { mode: 'number' }).notNull(),
    receivedSize: bigint('received_size', { mode: 'number' }).notNull().default(0),
    /** Bytes as stored and served once ready (a JPEG less its EXIF); null while pending. */
    storedSize: bigint('stored_size', { mode: 'number' }),
    /** Sniffed from the bytes when the upload ends; null while pending. */
    mime: text('mime'),
    status: text('status').notNull().default('pending'),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [
    index('files_target_idx').on(t.targetId, t.purpose),
    index('files_uploader_idx').on(t.uploaderId),
    index('files_submission_idx').on(t.submissionId),
    index('files_post_idx').on(t.postId),
    index('files_status_created_idx').on(t.status, t.createdAt),
    check('files_status_check', sql`${t.status} in ('pending', 'ready')`),
    check(
      'files_purpose_check',
      sql`${t.purpose} in ('assignment', 'submission', 'feedback', 'post', 'comment')`,
    ),
    check('files_size_check', sql`${t.declaredSize} >= 0 and ${t.receivedSize} >= 0`),
  ],
);

/**
 * A course's stream (DESIGN §19): its teacher's posts, plain text. A scheduled post has `publish_at`
 * and no `published_at` until its job publishes it (once: the job sets it only while it is null);
 * members see only published posts. Deleted for good with its comments.
 */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    pinned: boolean('pinned').notNull().default(false),
    commentsOff: boolean('comments_off').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    // The stream's pages: newest published first, the id breaking ties (the cursor is both).
    index('posts_course_published_idx').on(t.courseId, t.publishedAt.desc(), t.id.desc()),
    index('posts_author_idx').on(t.authorId),
    check('posts_text_check', sql`length(${t.text}) between 1 and 10000`),
  ],
);

/**
 * Comments (DESIGN §19): on a post, or in the private thread of one assignment and student (never
 * both). Deleting one leaves a tombstone: `text` is nulled in the same statement, so the words
 * are gone from the database, not hidden.
 */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    assignmentId: uuid('assignment_id').references(() => assignments.id, { onDelete: 'cascade' }),
    /** The student whose private thread this is (with assignment_id). */
    threadStudentId: uuid('thread_student_id').references(() => profiles.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** Null once deleted. */
    text: text('text'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('comments_post_idx').on(t.postId, t.createdAt, t.id),
    index('comments_thread_idx').on(t.assignmentId, t.threadStudentId, t.createdAt, t.id),
    index('comments_author_idx').on(t.authorId),
    index('comments_course_idx').on(t.courseId),
    check(
      'comments_parent_check',
      sql`(${t.postId} is null) <> (${t.assignmentId} is null) and (${t.assignmentId} is null) = (${t.threadStudentId} is null)`,
    ),
    check(
      'comments_text_check',
      sql`(${t.deletedAt} is null) = (${t.text} is not null) and (${t.text} is null or length(${t.text}) between 1 and 10000)`,
    ),
  ],
);

/** Who has seen a post (DESIGN §19: the teacher's "seen by N of M"): a row per member, the first time. */
export const postSeen = pgTable(
  'post_seen',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'post_seen_pkey', columns: [t.postId, t.userId] }),
    index('post_seen_user_idx').on(t.userId),
  ],
);

/** How far each side has read a private thread: its comments after `read_at` by others are unread. */
export const threadReads = pgTable(
  'thread_reads',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'thread_reads_pkey', columns: [t.assignmentId, t.studentId, t.userId] }),
    index('thread_reads_user_idx').on(t.userId),
  ],
);

/**
 * When each reader last opened a course's stream (DESIGN §19, "what's new"): posts and comments by
 * others after `read_at` are new on their dashboard and to-do. No row: everything since they joined.
 */
export const streamReads = pgTable(
  'stream_reads',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'stream_reads_pkey', columns: [t.courseId, t.userId] }),
    index('stream_reads_user_idx').on(t.userId),
  ],
);

/** A course's stream switches (DESIGN §19); no row: comments on. Written by its teacher only. */
export const streamSettings = pgTable('stream_settings', {
  courseId: uuid('course_id')
    .primaryKey()
    .references(() => courses.id, { onDelete: 'cascade' }),
  commentsOff: boolean('comments_off').notNull().default(false),
});

/** Students the course's teacher muted in its stream and threads' public side: they read, not comment. */
export const streamMutes = pgTable(
  'stream_mutes',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'stream_mutes_pkey', columns: [t.courseId, t.studentId] }),
    index('stream_mutes_student_idx').on(t.studentId),
  ],
);

/**
 * Live lessons (DESIGN §21): one live lesson per course at a time (ended_at null), made by its
 * teacher; at its end it may become a graded assignment (assignment_id).
 */
export const lessons = pgTable(
  'lessons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    startedBy: uuid('started_by').references(() => profiles.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    assignmentId: uuid('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
  },
  (t) => [
    // One live lesson per course: a second start meets this index (409 lesson_in_progress).
    uniqueIndex('lessons_live_course_key')
      .on(t.courseId)
      .where(sql`${t.endedAt} is null`),
    index('lessons_course_started_idx').on(t.courseId, t.startedAt),
    index('lessons_assignment_idx').on(t.assignmentId),
  ],
);

/**
 * A lesson's questions in the order pushed. One is open at a time (closed_at null); `correct` is
 * the right answer (null for a poll), shown to students only once the question is closed.
 */
export const lessonQuestions = pgTable(
  'lesson_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lessonId: uuid('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', {
      enum: ['multiple_choice', 'true_false', 'number', 'short_answer', 'poll'],
    }).notNull(),
    prompt: text('prompt').notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    correct: jsonb('correct').$type<number | boolean | string>(),
    anonymous: boolean('anonymous').notNull().default(false),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('lesson_questions_position_key').on(t.lessonId, t.position),
    // One open question per lesson.
    uniqueIndex('lesson_questions_open_key')
      .on(t.lessonId)
      .where(sql`${t.closedAt} is null`),
    check(
      'lesson_questions_kind_check',
      sql`${t.kind} in ('multiple_choice', 'true_false', 'number', 'short_answer', 'poll')`,
    ),
    check('lesson_questions_anonymous_check', sql`not ${t.anonymous} or ${t.kind} = 'poll'`),
  ],
);

/**
 * One answer per student and question, the last before closing (an upsert). Kept with the student
 * even on an anonymous poll, so each student has one answer and sees it in every tab; the API never
 * shows anyone else who gave it.
 */
export const lessonAnswers = pgTable(
  'lesson_answers',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => lessonQuestions.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    answer: jsonb('answer').$type<number | boolean | string>().notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'lesson_answers_pkey', columns: [t.questionId, t.studentId] }),
    index('lesson_answers_student_idx').on(t.studentId),
  ],
);

/**
 * A course's question bank (DESIGN §21): questions its teachers saved to push again in a later
 * lesson, as written (the right answer with them: only the course's teachers ever read the bank).
 */
export const questionBank = pgTable(
  'question_bank',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['multiple_choice', 'true_false', 'number', 'short_answer', 'poll'],
    }).notNull(),
    prompt: text('prompt').notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    correct: jsonb('correct').$type<number | boolean | string>(),
    anonymous: boolean('anonymous').notNull().default(false),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('question_bank_course_created_idx').on(t.courseId, t.createdAt),
    check(
      'question_bank_kind_check',
      sql`${t.kind} in ('multiple_choice', 'true_false', 'number', 'short_answer', 'poll')`,
    ),
  ],
);
