import { sql } from 'drizzle-orm';
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
    purpose: text('purpose', { enum: ['verify_email'] }).notNull(),
    /** Where the link sends the user after use; checked against APP_ORIGIN when stored and when used. */
    redirectTo: text('redirect_to').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('email_tokens_user_id_idx').on(t.userId),
    check('email_tokens_purpose_check', sql`${t.purpose} in ('verify_email')`),
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
  },
  (t) => [
    index('assignments_course_id_due_date_idx').on(t.courseId, t.dueDate),
    index('assignments_due_date_idx').on(t.dueDate),
    check('assignments_max_points_check', sql`${t.maxPoints} > 0`),
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
    content: text('content').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    grade: integer('grade'),
    feedback: text('feedback'),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('submissions_assignment_student_key').on(t.assignmentId, t.studentId),
    index('submissions_assignment_submitted_at_idx').on(t.assignmentId, t.submittedAt.desc()),
    index('submissions_student_id_idx').on(t.studentId),
    check('submissions_grade_check', sql`${t.grade} is null or ${t.grade} >= 0`),
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
