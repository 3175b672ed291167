import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import {
  categoriesProblem,
  type CategoriesBody,
  type CategoriesResponse,
  type GradeCategory,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { courses, gradeCategories } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { requireTeacherOf } from '../classes/visibility.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';

/** A course's categories in the teacher's order. */
export async function categoriesOf(tx: Db | Tx, courseId: string): Promise<GradeCategory[]> {
  return (await categoriesOfCourses(tx, [courseId])).get(courseId) ?? [];
}

/** The categories of several courses at once (a student's grades over all their courses). */
export async function categoriesOfCourses(
  tx: Db | Tx,
  courseIds: string[],
): Promise<Map<string, GradeCategory[]>> {
  const byCourse = new Map<string, GradeCategory[]>();
  if (courseIds.length === 0) return byCourse;
  const rows = await tx
    .select({
      courseId: gradeCategories.courseId,
      id: gradeCategories.id,
      name: gradeCategories.name,
      weight: gradeCategories.weight,
    })
    .from(gradeCategories)
    .where(inArray(gradeCategories.courseId, courseIds))
    .orderBy(asc(gradeCategories.position), asc(gradeCategories.id));
  for (const { courseId, ...category } of rows) {
    const list = byCourse.get(courseId) ?? [];
    list.push(category);
    byCourse.set(courseId, list);
  }
  return byCourse;
}

/**
 * The category an assignment is put in, checked against its course: null stays null, and an id of
 * another course's category (or none at all) is a 400 naming the field, never a silent mix.
 */
export async function requireCategoryOf(
  tx: Tx,
  courseId: string,
  categoryId: string | null | undefined,
): Promise<string | null | undefined> {
  if (!categoryId) return categoryId;
  const [row] = await tx
    .select({ id: gradeCategories.id })
    .from(gradeCategories)
    .where(and(eq(gradeCategories.id, categoryId), eq(gradeCategories.courseId, courseId)))
    // Held until the assignment's write commits: a category deleted meanwhile waits, then leaves it in none.
    .for('key share');
  if (!row) throw badRequest("body.categoryId must be one of this course's grade categories");
  return categoryId;
}

/** Grade categories with weights (DESIGN §17): read and written whole by the course's teacher. */
export function createCategoryService({ db, outbox }: { db: Db; outbox: Outbox }) {
  return {
    async list(caller: Caller, courseId: string): Promise<CategoriesResponse> {
      const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
      await requireTeacherOf(db, caller, course, 'see its grade categories');
      return { courseId, categories: await categoriesOf(db, courseId) };
    },

    /**
     * Replaces the list: ids kept are renamed, reweighted and reordered, new ones inserted, the rest
     * deleted (their assignments then in none). The course's row is locked so two saves apply one
     * after the other. Members' and the teacher's tabs hear `course:categories` and count again.
     */
    async replace(caller: Caller, courseId: string, body: CategoriesBody): Promise<CategoriesResponse> {
      const problem = categoriesProblem(body.categories);
      if (problem) throw badRequest(problem);
      return outbox.transaction(async (tx, record) => {
        const [locked] = await tx.select().from(courses).where(eq(courses.id, courseId)).for('update');
        const course = await requireTeacherOf(tx, caller, locked, 'change its grade categories');
        const existing = new Set((await categoriesOf(tx, courseId)).map((c) => c.id));
        const stray = body.categories.find((c) => c.id && !existing.has(c.id));
        if (stray) throw badRequest(`body.categories id ${stray.id} is not one of this course's categories`);
        const kept = body.categories.flatMap((c) => (c.id ? [c.id] : []));
        await tx
          .delete(gradeCategories)
          .where(
            and(
              eq(gradeCategories.courseId, courseId),
              kept.length ? notInArray(gradeCategories.id, kept) : undefined,
            ),
          );
        for (const [position, c] of body.categories.entries()) {
          const values = { name: c.name.trim(), weight: c.weight, position };
          if (c.id) await tx.update(gradeCategories).set(values).where(eq(gradeCategories.id, c.id));
          else await tx.insert(gradeCategories).values({ ...values, courseId });
        }
        const result = { courseId, categories: await categoriesOf(tx, courseId) };
        record('course:categories', result, audience.course(courseId, course.teacherId));
        return result;
      });
    },
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
