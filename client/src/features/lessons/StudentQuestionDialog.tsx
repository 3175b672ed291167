import type { Lesson, LessonQuestion } from '@classwave/shared';
import { Radio } from 'lucide-react';
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { selectProfile } from '../auth/authSlice';
import { AnswerForm } from './AnswerForm';
import { answerText } from './answerText';
import { useGetLiveLessonsQuery } from './lessonsApi';
import { ResultsChart } from './ResultsChart';
import './lessons.css';

/** What a student's tab should show: the open question of a live lesson, else the last one revealed. */
function featured(lessons: Lesson[] | undefined): { lesson: Lesson; question: LessonQuestion } | undefined {
  for (const lesson of lessons ?? []) {
    const open = lesson.questions.find((q) => q.closedAt === null);
    if (open) return { lesson, question: open };
  }
  for (const lesson of lessons ?? []) {
    const last = lesson.questions.at(-1);
    if (last) return { lesson, question: last };
  }
  return undefined;
}

/**
 * A student's live question, on whatever page they are (mounted in the app's frame): it opens the
 * moment the teacher pushes it, takes the answer, shows it in every tab, and turns into the reveal
 * — the right answer and whether theirs was right — when the teacher closes it. Put aside, it
 * waits behind a button in the corner.
 */
export function StudentQuestionDialog() {
  const student = useAppSelector(selectProfile)?.role === 'student';
  const { data } = useGetLiveLessonsQuery(undefined, { skip: !student });
  const [putAside, setPutAside] = useState<string | null>(null);
  const shown = student ? featured(data) : undefined;
  if (!shown) return null;
  const { lesson, question } = shown;
  const open = question.closedAt === null;
  // Put aside per question and state: the reveal of a question put aside while open still shows.
  const key = `${question.id}:${open ? 'open' : 'closed'}`;
  const aside = putAside === key;

  if (aside)
    return open ? (
      <button type="button" className="lesson-pill" onClick={() => setPutAside(null)}>
        <Radio aria-hidden="true" size={18} /> Live question — answer it
      </button>
    ) : null;

  return (
    <Modal
      open
      onClose={() => setPutAside(key)}
      title={question.prompt}
      description={`Live question ${question.position}${open ? '' : ' — closed'}`}
      initialFocus="title"
      className="lesson-dialog"
      footer={
        <Button variant={open ? 'secondary' : 'primary'} onClick={() => setPutAside(key)}>
          {open ? 'Later' : 'Done'}
        </Button>
      }
    >
      {open ? (
        <>
          <AnswerForm lesson={lesson} question={question} />
          <p className="lesson-dialog__status" role="status">
            {question.mine
              ? `Your answer: ${answerText(question, question.mine.answer)}. You can change it until your teacher closes the question.`
              : 'Not answered yet.'}
          </p>
        </>
      ) : (
        <Reveal question={question} />
      )}
    </Modal>
  );
}

function Reveal({ question }: { question: LessonQuestion }) {
  const mine = question.mine;
  return (
    <div className="lesson-reveal" role="status">
      {question.correct !== null ? (
        <p className="lesson-reveal__right">Right answer: {answerText(question, question.correct)}</p>
      ) : (
        <p className="lesson-reveal__right">Poll closed.</p>
      )}
      {mine ? (
        <p
          className={mine.correct === false ? 'lesson-reveal__mine is-wrong' : 'lesson-reveal__mine is-right'}
        >
          Your answer: {answerText(question, mine.answer)}
          {mine.correct === true && ' — right!'}
          {mine.correct === false && ' — not this time.'}
        </p>
      ) : (
        <p className="lesson-reveal__mine">You did not answer this one.</p>
      )}
      {question.results && <ResultsChart question={question} results={question.results} />}
    </div>
  );
}
