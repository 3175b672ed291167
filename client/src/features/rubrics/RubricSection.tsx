import type { RubricScores } from '@classwave/shared';
import { useGetRubricQuery } from './rubricsApi';
import { RubricTable } from './RubricTable';

/**
 * An assignment's rubric where a student reads it (DESIGN §17): before submitting, and with their
 * returned scores marked once a grade by it is returned. Nothing at all without a rubric.
 */
export function RubricSection({
  assignmentId,
  scores = null,
}: {
  assignmentId: string | undefined;
  scores?: RubricScores | null;
}) {
  const { data } = useGetRubricQuery(assignmentId ?? '', { skip: !assignmentId });
  if (!data?.rubric) return null;
  return <RubricTable rubric={data.rubric} scores={scores} caption={scores ? 'Rubric scores' : 'Rubric'} />;
}
