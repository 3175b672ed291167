import { MARK, type CellMark } from './GradebookCell';

const ENTRIES: Array<{ mark: CellMark | null; meaning: string }> = [
  { mark: null, meaning: 'no submission yet' },
  { mark: MARK.toGrade, meaning: 'submitted, not graded' },
  { mark: MARK.late, meaning: 'submitted after the due time' },
  { mark: MARK.missing, meaning: 'past due, nothing handed in' },
  { mark: MARK.excused, meaning: 'counts nowhere' },
  { mark: MARK.notAssigned, meaning: 'not for this student: counts nowhere' },
  { mark: MARK.held, meaning: 'graded, waiting for Return' },
  { mark: MARK.returned, meaning: 'returned to the student' },
];

/** What each mark of the gradebook's cells means (DESIGN §17). */
export function GradebookLegend() {
  return (
    <dl className="gradebook__legend" aria-label="What the marks mean">
      {ENTRIES.map(({ mark, meaning }) => (
        <div key={meaning} className="gradebook__legend-entry">
          <dt>
            {mark ? (
              <span className={`gradebook__mark gradebook__mark--${mark.tone}`}>{mark.short}</span>
            ) : (
              <span className="gradebook__grade">–</span>
            )}
          </dt>
          <dd>{meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
