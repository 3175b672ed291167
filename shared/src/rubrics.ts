import { Type, type Static } from 'typebox';

/**
 * Rubrics (DESIGN §17): criteria × levels with points, written or reused per assignment. The
 * assignment keeps its own snapshot (a copy from another assignment gets fresh ids), so a change
 * elsewhere never alters what a grade was given by.
 */

const Uuid = Type.String({ format: 'uuid' });

export const RUBRIC_LIMITS = {
  criteria: 20,
  levels: 6,
  title: 200,
} as const;

const Title = Type.String({ minLength: 1, maxLength: RUBRIC_LIMITS.title, pattern: '\\S' });
const Points = Type.Integer({ minimum: 0, maximum: 10_000 });

export const RubricLevel = Type.Object(
  { id: Uuid, title: Type.String(), points: Type.Integer() },
  { additionalProperties: false },
);
export type RubricLevel = Static<typeof RubricLevel>;

export const RubricCriterion = Type.Object(
  { id: Uuid, title: Type.String(), levels: Type.Array(RubricLevel) },
  { additionalProperties: false },
);
export type RubricCriterion = Static<typeof RubricCriterion>;

/** An assignment's rubric as stored and shown: every criterion and level has a stable id. */
export const Rubric = Type.Object({ criteria: Type.Array(RubricCriterion) }, { additionalProperties: false });
export type Rubric = Static<typeof Rubric>;

/** GET/PUT /api/assignments/:id/rubric: the assignment's rubric, or null without one. */
export const AssignmentRubric = Type.Object(
  { assignmentId: Uuid, maxPoints: Type.Integer(), rubric: Type.Union([Rubric, Type.Null()]) },
  { additionalProperties: false },
);
export type AssignmentRubric = Static<typeof AssignmentRubric>;

/**
 * PUT /api/assignments/:id/rubric. `criteria: []` removes the rubric. Reuse is a copy: the teacher
 * reads another assignment of theirs through GET (404 unless they teach it) and puts its criteria here.
 */
export const PutRubricBody = Type.Object(
  {
    criteria: Type.Array(
      Type.Object(
        {
          title: Title,
          levels: Type.Array(Type.Object({ title: Title, points: Points }, { additionalProperties: false }), {
            minItems: 1,
            maxItems: RUBRIC_LIMITS.levels,
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: RUBRIC_LIMITS.criteria },
    ),
  },
  { additionalProperties: false },
);
export type PutRubricBody = Static<typeof PutRubricBody>;

/**
 * Grading by rubric: one level per criterion, `{<criterionId>: <levelId>}`, every criterion chosen.
 * Null clears the scores; left out, they stay only while they still add up to the grade.
 */
export const RubricScores = Type.Record(Type.String(), Uuid, { maxProperties: RUBRIC_LIMITS.criteria });
export type RubricScores = Static<typeof RubricScores>;

/** Each criterion's highest level, summed: what the rubric is out of. */
export function rubricTotal(rubric: Pick<Rubric, 'criteria'>): number {
  return rubric.criteria.reduce(
    (sum, c) => sum + c.levels.reduce((best, l) => Math.max(best, l.points), 0),
    0,
  );
}

/** The points of the chosen levels, or null when a criterion is unchosen or a choice is unknown. */
export function rubricPoints(rubric: Rubric, scores: RubricScores): number | null {
  let sum = 0;
  for (const c of rubric.criteria) {
    const level = c.levels.find((l) => l.id === scores[c.id]);
    if (!level) return null;
    sum += level.points;
  }
  return sum;
}

/** Whether two sets of scores choose the same levels (null: none). */
export function sameScores(a: RubricScores | null, b: RubricScores | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
