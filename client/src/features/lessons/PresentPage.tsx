import { X } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { ButtonLink } from '../../components/ButtonLink';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../layout/usePageFocus';
import { answerText } from './answerText';
import { openQuestion } from './lessonCache';
import { useGetCurrentLessonQuery } from './lessonsApi';
import { ResultsChart } from './ResultsChart';
import './lessons.css';

/**
 * /courses/:courseId/lesson/present: the classroom projector. While a question is open: the
 * question, its choices and a live count (no chart, so the room is not swayed); once closed: the
 * chart with the right answer. No names, ever.
 */
export function PresentPage() {
  const { courseId = '' } = useParams();
  const { data, isLoading } = useGetCurrentLessonQuery(courseId);
  usePageTitle('Live lesson · present');
  const lesson = data?.lesson ?? null;
  const question = openQuestion(lesson) ?? lesson?.questions.at(-1);
  return (
    <main className="lesson-present">
      <ButtonLink
        to={`/courses/${courseId}/lesson`}
        variant="ghost"
        size="sm"
        icon={<X />}
        className="lesson-present__exit"
      >
        Leave the projector view
      </ButtonLink>
      {isLoading ? (
        <Spinner size="lg" label="Loading the lesson" />
      ) : !lesson ? (
        <h1 className="lesson-present__prompt">No live lesson right now.</h1>
      ) : !question ? (
        <h1 className="lesson-present__prompt">The first question is on its way…</h1>
      ) : (
        <>
          <p className="lesson-present__kicker">Question {question.position}</p>
          <h1 className="lesson-present__prompt">{question.prompt}</h1>
          {question.closedAt === null ? (
            <>
              {question.options.length > 0 && (
                <ol className="lesson-present__options" type="A">
                  {question.options.map((o, i) => (
                    <li key={i}>{o}</li>
                  ))}
                </ol>
              )}
              <p className="lesson-present__count" role="status" aria-live="polite">
                <strong>{question.results?.answered ?? 0}</strong> of {lesson.students?.length ?? 0} answered
              </p>
            </>
          ) : (
            <>
              {question.correct !== null && (
                <p className="lesson-present__right">
                  Right answer: {answerText(question, question.correct)}
                </p>
              )}
              {question.results && <ResultsChart question={question} results={question.results} big />}
            </>
          )}
        </>
      )}
    </main>
  );
}
