import { Type, type Static } from 'typebox';

/**
 * Grade categories with weights (DESIGN §17): optional per course. With none, a student's percent
 * is points over possible; with some, it is each category's percent weighted by its share, over
 * the categories that have counted work so far (a term with only homework graded reads as the
 * homework percent, not as a failing grade).
 */
export const CATEGORY_LIMITS = { count: 12, name: 60, weightTotal: 100 } as const;

const Uuid = Type.String({ format: 'uuid' });

export const GradeCategory = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    /** Percent of the course total, a whole number; the course's weights add up to 100. */
    weight: Type.Integer(),
  },
  { additionalProperties: false },
);
export type GradeCategory = Static<typeof GradeCategory>;

export const CategoriesResponse = Type.Object(
  { courseId: Uuid, categories: Type.Array(GradeCategory) },
  { additionalProperties: false },
);
export type CategoriesResponse = Static<typeof CategoriesResponse>;

/**
 * `PUT /api/courses/:id/categories`: the whole list, in order. A category with an id is renamed or
 * reweighted; one without is new; one left out is deleted, its assignments left in no category.
 */
export const CategoriesBody = Type.Object(
  {
    categories: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Uuid),
          name: Type.String({ minLength: 1, maxLength: CATEGORY_LIMITS.name, pattern: '\\S' }),
          weight: Type.Integer({ minimum: 0, maximum: CATEGORY_LIMITS.weightTotal }),
        },
        { additionalProperties: false },
      ),
      { maxItems: CATEGORY_LIMITS.count },
    ),
  },
  { additionalProperties: false },
);
export type CategoriesBody = Static<typeof CategoriesBody>;

/** What a body's list breaks, in words for a 400 (null when it is fine): weights and names. */
export function categoriesProblem(list: CategoriesBody['categories']): string | null {
  if (list.length === 0) return null;
  const total = list.reduce((sum, c) => sum + c.weight, 0);
  if (total !== CATEGORY_LIMITS.weightTotal)
    return `body.categories weights must add up to 100 (they add up to ${total})`;
  const seen = new Set<string>();
  for (const c of list) {
    const key = c.name.trim().toLowerCase();
    if (seen.has(key)) return `body.categories has the name "${c.name.trim()}" twice`;
    seen.add(key);
  }
  const ids = list.flatMap((c) => (c.id ? [c.id] : []));
  if (new Set(ids).size !== ids.length) return 'body.categories has the same id twice';
  return null;
}

/** One piece of work as totals count it (see courseTotals). */
export interface CountedWork {
  maxPoints: number;
  /** The grade that counts (the one the viewer may see), or null. */
  grade: number | null;
  /** Excused work counts nowhere; missing work counts 0 where the course says so. */
  status: string;
  categoryId: string | null;
}

export interface CategoryTotal extends GradeCategory {
  points: number;
  possible: number;
  percent: number | null;
}

export interface Totals {
  points: number;
  possible: number;
  /** Weighted when the course has categories; one decimal. */
  percent: number | null;
  /** Per category, in the course's order; empty when the course has none. */
  categories: CategoryTotal[];
}

const oneDecimal = (ratio: number) => Math.round(ratio * 1000) / 10;

/**
 * A student's totals (DESIGN §17), one rule for the gradebook, the CSV and the student's own page:
 * graded work counts; missing work counts 0 of its max where `zeroForMissing`; an ungraded
 * submission and excused work count for nothing. With categories, the percent is the weighted mean
 * of the categories that have counted work (their weights scaled up to 100 between them); work in
 * no category counts in the points but not in that percent.
 */
export function courseTotals(
  work: CountedWork[],
  categories: GradeCategory[],
  zeroForMissing: boolean,
): Totals {
  const byCategory = new Map<string, CategoryTotal>(
    categories.map((c) => [c.id, { ...c, points: 0, possible: 0, percent: null }]),
  );
  let points = 0;
  let possible = 0;
  for (const item of work) {
    if (item.status === 'excused') continue;
    if (item.grade === null && !(zeroForMissing && item.status === 'missing')) continue;
    points += item.grade ?? 0;
    possible += item.maxPoints;
    const category = item.categoryId === null ? undefined : byCategory.get(item.categoryId);
    if (!category) continue;
    category.points += item.grade ?? 0;
    category.possible += item.maxPoints;
  }
  const totals = [...byCategory.values()];
  for (const c of totals) c.percent = c.possible > 0 ? oneDecimal(c.points / c.possible) : null;
  if (categories.length === 0)
    return { points, possible, percent: possible > 0 ? oneDecimal(points / possible) : null, categories: [] };
  let weighted = 0;
  let weights = 0;
  for (const c of totals) {
    if (c.possible === 0 || c.weight === 0) continue;
    weighted += (c.weight * c.points) / c.possible;
    weights += c.weight;
  }
  return {
    points,
    possible,
    percent: weights > 0 ? oneDecimal(weighted / weights) : null,
    categories: totals,
  };
}
