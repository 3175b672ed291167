import { rubricPoints, type Rubric, type RubricScores } from '@classwave/shared';
import './rubrics.css';

/**
 * Grading by rubric (DESIGN §17): one level per criterion, as radio buttons. Every choice hands back
 * the scores and, once every criterion is chosen, their sum: the grade it fills in.
 */
export function RubricPicker({
  rubric,
  scores,
  onChange,
  name,
}: {
  rubric: Rubric;
  scores: RubricScores;
  onChange: (scores: RubricScores, points: number | null) => void;
  /** Sets the radio groups apart when several pickers are on the page (one per student). */
  name: string;
}) {
  return (
    <div className="rubric-picker">
      {rubric.criteria.map((c) => (
        <fieldset key={c.id} className="rubric-picker__criterion">
          <legend>{c.title}</legend>
          <div className="rubric-picker__levels">
            {c.levels.map((l) => (
              <label key={l.id} className="rubric-picker__level">
                <input
                  type="radio"
                  name={`${name}-${c.id}`}
                  checked={scores[c.id] === l.id}
                  onChange={() => {
                    const next = { ...scores, [c.id]: l.id };
                    onChange(next, rubricPoints(rubric, next));
                  }}
                />
                <span>
                  {l.title} <span className="rubric-picker__points">({l.points})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
