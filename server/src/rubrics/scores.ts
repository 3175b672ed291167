import { rubricPoints, type GradeBody, type Rubric, type RubricScores } from '@classwave/shared';
import { badRequest } from '../http/errors.js';

/**
 * The rubric scores a grade write leaves on the row (DESIGN §17), checked against the assignment's
 * snapshot: every criterion gets one of its own levels, and the grade is their sum. A grade that
 * disagrees is refused rather than derived, so a client never saves a number it did not show.
 * Left out (a gradebook cell sends the grade alone), the scores stay while they still add up to
 * the grade and are dropped otherwise: a typed grade overrides the rubric.
 */
export function scoresForGrade(
  rubric: Rubric | null,
  body: Pick<GradeBody, 'grade' | 'rubric'>,
  current: RubricScores | null,
): RubricScores | null {
  if (body.rubric === undefined)
    return current && rubric && rubricPoints(rubric, current) === body.grade ? current : null;
  if (body.rubric === null) return null;
  if (!rubric) throw badRequest('body.rubric: this assignment has no rubric to grade by');
  const given = body.rubric;
  const known = new Set(rubric.criteria.map((c) => c.id));
  const unknown = Object.keys(given).find((id) => !known.has(id));
  if (unknown !== undefined)
    throw badRequest(`body.rubric.${unknown.slice(0, 40)} is not a criterion of this assignment's rubric`);
  const scores: RubricScores = {};
  let sum = 0;
  for (const criterion of rubric.criteria) {
    const levelId = Object.hasOwn(given, criterion.id) ? given[criterion.id] : undefined;
    if (levelId === undefined)
      throw badRequest(`body.rubric.${criterion.id} is missing: choose a level for "${criterion.title}"`);
    const level = criterion.levels.find((l) => l.id === levelId);
    if (!level)
      throw badRequest(`body.rubric.${criterion.id}: ${levelId} is not a level of "${criterion.title}"`);
    scores[criterion.id] = level.id;
    sum += level.points;
  }
  if (body.grade !== sum)
    throw badRequest(`body.grade must be ${sum}, the sum of the rubric levels chosen in body.rubric`);
  return scores;
}
