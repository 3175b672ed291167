import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql, sum } from 'drizzle-orm';
import {
  ErrorCode,
  LIMITS,
  normalizeCourseCode,
  shiftDueDates,
  type Assignment,
  type CopyAssignmentBody,
  type CopyCourseBody,
  type Course,
} from '@classwave/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courses, files, gradeCategories, profiles } from '../db/schema.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import { requireTeacherOf, requireTeacherOfAssignment } from '../classes/visibility.js';
import { randomJoinCode, retryOnCodeCollision } from '../classes/codes.js';
import { toCourse } from '../courses/service.js';
import { recordAssignment } from '../assignments/service.js';
import type { FileStorage } from '../files/storage.js';
import { found } from '../policies.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { requireCurrentCourse } from './rules.js';

/**
 * Copying a course and reusing an assignment (DESIGN §20). What is copied: the course's title,
 * description and settings, its grade categories, its live assignments with their rubrics and
 * materials (the stored bytes copied under new keys, so removing one copy's file never takes the
 * other's). Never its students, their work, grades, drafts, comments, posts or lessons.
 */

type AssignmentRow = typeof assignments.$inferSelect;
type FileRow = typeof files.$inferSelect;
const COPY_SUFFIX = ' (copy)';
const MB = 1024 * 1024;
const ZERO = { submissionCount: 0, needsGrading: 0 };

/** A code of the caller's not yet taken: the source's, else the source's with -2, -3, … */
function freeCode(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const code = `${base.slice(0, LIMITS.courseCode - suffix.length)}${suffix}`;
    if (!taken.has(code)) return code;
  }
}

/** A material's copy: its new id (also its storage key) and the row it was copied from. */
interface CopiedFile {
  id: string;
  from: FileRow;
  assignmentId: string;
}

export function createCopyService({
  db,
  clock,
  outbox,
  storage,
  quotaBytes,
  log,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  storage: FileStorage;
  quotaBytes: number;
  log: FastifyBaseLogger;
}) {
  /** The ready materials of these assignments, oldest first. */
  const materialsOf = async (assignmentIds: string[]) =>
    assignmentIds.length === 0
      ? []
      : db
          .select()
          .from(files)
          .where(
            and(
              inArray(files.targetId, assignmentIds),
              eq(files.purpose, 'assignment'),
              eq(files.status, 'ready'),
            ),
          )
          .orderBy(asc(files.createdAt), asc(files.id));

  /**
   * Stores a copy of each material's bytes under a new key, before the rows that name them are
   * written: a crash in between leaves only unnamed bytes, never a row without its file. The copies
   * count against the caller's quota, as their uploads would.
   */
  async function copyBytes(caller: Caller, materials: FileRow[], newAssignmentOf: (id: string) => string) {
    const size = (f: FileRow) => f.storedSize ?? f.declaredSize;
    const wanted = materials.reduce((n, f) => n + size(f), 0);
    if (wanted > 0) {
      const [{ used } = { used: null }] = await db
        .select({ used: sum(files.declaredSize) })
        .from(files)
        .where(eq(files.uploaderId, caller.userId));
      const usedBytes = Number(used ?? 0);
      if (usedBytes + wanted > quotaBytes)
        throw new AppError(
          413,
          ErrorCode.quotaExceeded,
          `The copied materials (${Math.ceil(wanted / MB)} MB) would pass your file quota (UPLOAD_QUOTA_BYTES); remove some files first.`,
        );
    }
    const copied: CopiedFile[] = [];
    try {
      for (const from of materials) {
        const id = randomUUID();
        await storage.put(id, await storage.open(from.storageKey), size(from));
        copied.push({ id, from, assignmentId: newAssignmentOf(from.targetId!) });
      }
    } catch (error) {
      await forget(copied);
      throw error;
    }
    return copied;
  }

  /** Removes copied bytes no row will name (the copy failed); a leftover is harmless, so only logged. */
  async function forget(copied: CopiedFile[]) {
    for (const { id } of copied)
      await storage.remove(id).catch((error: unknown) => log.warn({ err: error, id }, 'copy: bytes left'));
  }

  /** The materials' rows, the caller's uploads now, ready as their sources. */
  async function insertFiles(tx: Tx, caller: Caller, copied: CopiedFile[], courseId: string) {
    if (copied.length === 0) return;
    const now = clock.now();
    await tx.insert(files).values(
      copied.map(({ id, from, assignmentId }) => ({
        id,
        uploaderId: caller.userId,
        purpose: 'assignment',
        targetId: assignmentId,
        courseId,
        name: from.name,
        declaredSize: from.declaredSize,
        receivedSize: from.receivedSize,
        storedSize: from.storedSize,
        mime: from.mime,
        status: 'ready',
        storageKey: id,
        createdAt: now,
        readyAt: now,
      })),
    );
  }

  /** The copy of an assignment's row: its settings and rubric, a new id, another course and due date. */
  const copyOf = (
    row: AssignmentRow,
    id: string,
    courseId: string,
    dueDate: Date,
    categoryId: string | null,
  ) => ({
    id,
    title: row.title,
    description: row.description,
    dueDate,
    maxPoints: row.maxPoints,
    courseId,
    createdAt: clock.now(),
    gradeRelease: row.gradeRelease,
    closesAtDue: row.closesAtDue,
    categoryId,
    rubric: row.rubric,
  });

  async function teacherName(tx: Tx, userId: string, lock: boolean) {
    const query = tx.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, userId));
    const [row] = lock ? await query.for('update') : await query;
    return found(row, 'Profile').fullName;
  }

  return {
    /**
     * Any teacher of a course (owner or co-teacher, archived or not) copies it into a new course of
     * their own, with a new join code and no students. Due dates keep their spacing (shiftDueDates).
     */
    async copyCourse(caller: Caller, id: string, body: CopyCourseBody): Promise<Course> {
      const [source] = await db.select().from(courses).where(eq(courses.id, id));
      const course = await requireTeacherOf(db, caller, source, 'copy it');
      const rows = await db
        .select()
        .from(assignments)
        .where(and(eq(assignments.courseId, course.id), isNull(assignments.deletedAt)))
        .orderBy(asc(assignments.dueDate), asc(assignments.id));
      const categories = await db
        .select()
        .from(gradeCategories)
        .where(eq(gradeCategories.courseId, course.id))
        .orderBy(asc(gradeCategories.position));
      const newIds = new Map(rows.map((r) => [r.id, randomUUID()]));
      const dues = shiftDueDates(
        rows.map((r) => r.dueDate),
        clock.now(),
      );
      const copied = await copyBytes(caller, await materialsOf([...newIds.keys()]), (old) =>
        newIds.get(old)!,
      );
      const wantedCode = body.code === undefined ? undefined : normalizeCourseCode(body.code);
      try {
        return await retryOnCodeCollision(() =>
          outbox.transaction(async (tx, record) => {
            // The caller's row, locked as on create: two copies can't both take one code.
            const name = await teacherName(tx, caller.userId, true);
            const taken = new Set(
              (
                await tx
                  .select({ code: sql<string>`upper(${courses.code})` })
                  .from(courses)
                  .where(and(eq(courses.teacherId, caller.userId), isNull(courses.deletedAt)))
              ).map((r) => r.code),
            );
            if (wantedCode !== undefined && taken.has(wantedCode))
              throw conflict(`You already have a course with the code ${wantedCode}.`);
            const title =
              body.title?.trim() ??
              `${course.title.slice(0, LIMITS.courseTitle - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
            const [row] = await tx
              .insert(courses)
              .values({
                title,
                code: wantedCode ?? freeCode(normalizeCourseCode(course.code), taken),
                description: course.description,
                teacherId: caller.userId,
                joinCode: randomJoinCode(),
                missingCountsAsZero: course.missingCountsAsZero,
              })
              .returning();
            const created = toCourse(row!, name, true);
            record('course:created', created, audience.teachers(created.id, caller.userId));
            const categoryIds = new Map(categories.map((c) => [c.id, randomUUID()]));
            if (categories.length > 0)
              await tx.insert(gradeCategories).values(
                categories.map((c) => ({
                  id: categoryIds.get(c.id)!,
                  courseId: created.id,
                  name: c.name,
                  weight: c.weight,
                  position: c.position,
                })),
              );
            if (rows.length > 0) {
              const inserted = await tx
                .insert(assignments)
                .values(
                  rows.map((r, i) =>
                    copyOf(
                      r,
                      newIds.get(r.id)!,
                      created.id,
                      dues[i]!,
                      r.categoryId ? (categoryIds.get(r.categoryId) ?? null) : null,
                    ),
                  ),
                )
                .returning();
              for (const a of inserted)
                recordAssignment(
                  record,
                  'assignment:created',
                  a,
                  created.title,
                  caller.userId,
                  ZERO,
                  clock.now(),
                );
            }
            await insertFiles(tx, caller, copied, created.id);
            return created;
          }),
        );
      } catch (error) {
        await forget(copied);
        throw error;
      }
    },

    /**
     * Reuses an assignment in another course (DESIGN §20): the caller must teach both (a source they
     * cannot see is 404, as is a target, so neither's existence leaks); the target must not be archived.
     * Its category is the target's of the same name, if any; its rubric and materials come along.
     */
    async copyAssignment(caller: Caller, id: string, body: CopyAssignmentBody): Promise<Assignment> {
      const [source] = await db
        .select({ assignment: assignments, course: courses })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .where(and(eq(assignments.id, id), isNull(assignments.deletedAt)));
      await requireTeacherOfAssignment(db, caller, source?.course, id, 'copy its assignments');
      const from = source!.assignment;
      let dueDate: Date;
      if (body.dueDate !== undefined) {
        dueDate = new Date(body.dueDate);
        if (Number.isNaN(dueDate.getTime())) throw badRequest('body.dueDate must be a valid date-time');
      } else dueDate = shiftDueDates([from.dueDate], clock.now())[0]!;
      // The target checked before any byte is copied, and again under its lock below.
      const checkTarget = async (tx: Db | Tx, lock: boolean) => {
        const query = tx.select().from(courses).where(eq(courses.id, body.courseId));
        const [row] = lock ? await query.for('share') : await query;
        const target = await requireTeacherOf(tx, caller, row, 'add assignments to it');
        await requireCurrentCourse(tx, target.id);
        return target;
      };
      await checkTarget(db, false);
      const newId = randomUUID();
      const copied = await copyBytes(caller, await materialsOf([from.id]), () => newId);
      try {
        return await outbox.transaction(async (tx, record) => {
          const target = await checkTarget(tx, true);
          const categoryId = await sameCategory(tx, from.categoryId, target.id);
          const [row] = await tx
            .insert(assignments)
            .values(copyOf(from, newId, target.id, dueDate, categoryId))
            .returning();
          await insertFiles(tx, caller, copied, target.id);
          return recordAssignment(
            record,
            'assignment:created',
            row!,
            target.title,
            target.teacherId,
            ZERO,
            clock.now(),
          );
        });
      } catch (error) {
        await forget(copied);
        throw error;
      }
    },
  };
}

/** The target course's category named as the source's (case aside), or null: the source's own belongs to another course. */
async function sameCategory(tx: Tx, categoryId: string | null, courseId: string): Promise<string | null> {
  if (!categoryId) return null;
  const [source] = await tx
    .select({ name: gradeCategories.name })
    .from(gradeCategories)
    .where(eq(gradeCategories.id, categoryId));
  if (!source) return null;
  const [match] = await tx
    .select({ id: gradeCategories.id })
    .from(gradeCategories)
    .where(
      and(
        eq(gradeCategories.courseId, courseId),
        sql`lower(${gradeCategories.name}) = lower(${source.name})`,
      ),
    )
    .orderBy(asc(gradeCategories.position))
    .limit(1);
  return match?.id ?? null;
}

export type CopyService = ReturnType<typeof createCopyService>;
