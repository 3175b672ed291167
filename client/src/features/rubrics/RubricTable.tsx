import { rubricTotal, type Rubric, type RubricScores } from '@classwave/shared';
import clsx from 'clsx';
import './rubrics.css';

/**
 * A rubric to read (DESIGN §17): each criterion with its levels and their points. With `scores`
 * (the student's returned ones), the chosen level of each criterion is marked and their sum shown.
 */
export function RubricTable({
  rubric,
  scores = null,
  caption = 'Rubric',
}: {
  rubric: Rubric;
  scores?: RubricScores | null;
  caption?: string;
}) {
  const chosen = (criterionId: string, levelId: string) => scores?.[criterionId] === levelId;
  const scored = scores
    ? rubric.criteria.reduce((sum, c) => sum + (c.levels.find((l) => chosen(c.id, l.id))?.points ?? 0), 0)
    : null;
  return (
    <section className="rubric-table" aria-label={caption}>
      <h3 className="rubric-table__caption">
        {caption}
        <span className="rubric-table__total">
          {scored === null ? `${rubricTotal(rubric)} points` : `${scored} of ${rubricTotal(rubric)} points`}
        </span>
      </h3>
      <ul className="rubric-table__criteria">
        {rubric.criteria.map((c) => (
          <li key={c.id} className="rubric-table__criterion">
            <span className="rubric-table__title">{c.title}</span>
            <ul className="rubric-table__levels">
              {c.levels.map((l) => (
                <li
                  key={l.id}
                  className={clsx('rubric-table__level', chosen(c.id, l.id) && 'rubric-table__level--chosen')}
                >
                  {l.title} <span className="rubric-table__points">{l.points} pts</span>
                  {chosen(c.id, l.id) && <span className="sr-only"> (your score)</span>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
