import type { LessonQuestion, LessonResults } from '@classwave/shared';
import { answerText } from './answerText';
import './lessons.css';

/**
 * The class's answers as horizontal bars, one per choice (or distinct answer), the right one
 * marked once it is known. A list with the counts in words, so a screen reader reads it as well.
 */
export function ResultsChart({
  question,
  results,
  big = false,
}: {
  question: LessonQuestion;
  results: LessonResults;
  big?: boolean;
}) {
  const max = Math.max(1, ...results.counts.map((c) => c.count));
  if (results.counts.length === 0)
    return (
      <p className="lesson-chart__empty">
        {results.correctCount !== null
          ? `${results.correctCount} of ${results.answered} right`
          : `${results.answered} answered`}
      </p>
    );
  return (
    <ul className={big ? 'lesson-chart lesson-chart--big' : 'lesson-chart'} aria-label="Answers so far">
      {results.counts.map((c) => {
        const right =
          question.correct !== null &&
          answerText(question, c.answer) === answerText(question, question.correct);
        const label = answerText(question, c.answer);
        return (
          <li
            key={JSON.stringify(c.answer)}
            className={right ? 'lesson-chart__row is-right' : 'lesson-chart__row'}
          >
            <span className="lesson-chart__label">
              {right && (
                <span className="lesson-chart__mark" aria-hidden="true">
                  ✓{' '}
                </span>
              )}
              {label}
              {right && <span className="sr-only"> (right answer)</span>}
            </span>
            <span className="lesson-chart__bar" aria-hidden="true">
              <span style={{ width: `${(c.count / max) * 100}%` }} />
            </span>
            <span className="lesson-chart__count">
              {c.count}
              <span className="sr-only"> {c.count === 1 ? 'answer' : 'answers'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
