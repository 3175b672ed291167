import type { Lesson, LessonQuestion } from '@classwave/shared';
import { Eye } from 'lucide-react';
import { Button } from '../../components/Button';
import { tried } from '../conversations/tried';
import { answerText, KIND_LABELS } from './answerText';
import { notAnswered } from './lessonCache';
import { useCloseQuestionMutation } from './lessonsApi';
import { ResultsChart } from './ResultsChart';

/**
 * The teacher's live results of a question: how many answered of how many, the chart, who has not
 * answered yet (never for an anonymous poll), and the close that reveals it to the class.
 */
export function LiveResults({ lesson, question }: { lesson: Lesson; question: LessonQuestion }) {
  const [close, { isLoading }] = useCloseQuestionMutation();
  const open = question.closedAt === null;
  const answered = question.results?.answered ?? 0;
  const total = lesson.students?.length ?? 0;
  const waiting = notAnswered(lesson, question);
  return (
    <section className="card lesson-results" aria-labelledby={`q-${question.id}`}>
      <p className="lesson-results__kind">
        Question {question.position} · {KIND_LABELS[question.kind]}
        {question.anonymous && ' · anonymous'} · {open ? 'open' : 'closed'}
      </p>
      <h2 id={`q-${question.id}`} className="lesson-results__prompt">
        {question.prompt}
      </h2>
      <p className="lesson-results__count" role="status" aria-live="polite">
        <strong>{answered}</strong> of {total} answered
        {question.results?.correctCount !== null && question.results !== null && (
          <> · {question.results.correctCount} right</>
        )}
      </p>
      {question.correct !== null && (
        <p className="lesson-results__right">Right answer: {answerText(question, question.correct)}</p>
      )}
      {question.results && <ResultsChart question={question} results={question.results} />}
      {!question.anonymous && open && (
        <details className="lesson-results__waiting" open={waiting.length > 0 && waiting.length <= 12}>
          <summary>Not answered yet ({waiting.length})</summary>
          {waiting.length === 0 ? (
            <p>Everyone has answered.</p>
          ) : (
            <ul>
              {waiting.map((s) => (
                <li key={s.id}>{s.fullName}</li>
              ))}
            </ul>
          )}
        </details>
      )}
      {!question.anonymous && !open && question.answers && question.answers.length > 0 && (
        <details className="lesson-results__waiting">
          <summary>Answers by student ({question.answers.length})</summary>
          <ul>
            {question.answers.map((a) => (
              <li key={a.student.id}>
                {a.student.fullName}: {answerText(question, a.answer)}
                {a.correct === true && ' ✓'}
                {a.correct === false && ' ✗'}
              </li>
            ))}
          </ul>
        </details>
      )}
      {open && (
        <Button
          icon={<Eye />}
          loading={isLoading}
          onClick={() =>
            void tried(
              close({ lesson, questionId: question.id }).unwrap(),
              'The question could not be closed.',
            )
          }
        >
          Close and reveal
        </Button>
      )}
    </section>
  );
}
