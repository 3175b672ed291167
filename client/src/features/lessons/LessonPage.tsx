import type { Lesson } from '@classwave/shared';
import { MonitorPlay, Play, Square, Table2 } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { BackLink } from '../../components/BackLink';
import { Button } from '../../components/Button';
import { ButtonLink } from '../../components/ButtonLink';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { tried } from '../conversations/tried';
import { useGetCourseQuery } from '../courses/coursesApi';
import { usePageTitle } from '../layout/usePageFocus';
import { openQuestion } from './lessonCache';
import { useEndLessonMutation, useGetCurrentLessonQuery, useStartLessonMutation } from './lessonsApi';
import { LiveResults } from './LiveResults';
import { QuestionComposer } from './QuestionComposer';
import './lessons.css';

/** /courses/:courseId/lesson: the teacher runs the course's live lesson (DESIGN §21). */
export function LessonPage() {
  const { courseId = '' } = useParams();
  const course = useGetCourseQuery(courseId).data?.course;
  const { data, isLoading } = useGetCurrentLessonQuery(courseId);
  const [start, starting] = useStartLessonMutation();
  const [ended, setEnded] = useState<Lesson | null>(null);
  usePageTitle(course ? `Live lesson · ${course.title}` : 'Live lesson');
  const lesson = data?.lesson ?? null;

  return (
    <div className="lesson-page">
      <BackLink to={`/courses/${courseId}`}>Back to the course</BackLink>
      <header className="lesson-page__header">
        <h1>Live lesson{course && <span className="lesson-page__course"> · {course.title}</span>}</h1>
        {lesson && (
          <div className="lesson-page__actions">
            <ButtonLink
              to={`/courses/${courseId}/lesson/present`}
              size="sm"
              variant="secondary"
              icon={<MonitorPlay />}
            >
              Present
            </ButtonLink>
            <EndLesson lesson={lesson} onEnded={setEnded} />
          </div>
        )}
      </header>
      {isLoading ? (
        <Spinner label="Loading the lesson" />
      ) : lesson ? (
        <LessonControls lesson={lesson} />
      ) : (
        <>
          <div className="card lesson-empty">
            {ended ? (
              <p role="status">
                The lesson has ended.{' '}
                {ended.assignmentId
                  ? 'Its results are in the gradebook as a graded assignment.'
                  : 'Its results were not added to the gradebook.'}
              </p>
            ) : (
              <p>No live lesson in this course right now.</p>
            )}
            <div className="lesson-page__actions">
              <Button
                icon={<Play />}
                loading={starting.isLoading}
                onClick={() => void tried(start(courseId).unwrap(), 'The lesson could not be started.')}
              >
                Start a live lesson
              </Button>
              {ended?.assignmentId && (
                <ButtonLink to={`/courses/${courseId}/gradebook`} variant="secondary" icon={<Table2 />}>
                  Open the gradebook
                </ButtonLink>
              )}
            </div>
          </div>
          {ended && <FinalResults lesson={ended} />}
        </>
      )}
    </div>
  );
}

/** The ended lesson's results, question by question (the end's answer: every one closed and revealed). */
function FinalResults({ lesson }: { lesson: Lesson }) {
  if (lesson.questions.length === 0) return null;
  return (
    <section className="lesson-final" aria-labelledby="lesson-final-title">
      <h2 id="lesson-final-title" className="lesson-section-title">
        Final results
      </h2>
      {lesson.questions.map((q) => (
        <LiveResults key={q.id} lesson={lesson} question={q} />
      ))}
    </section>
  );
}

function LessonControls({ lesson }: { lesson: Lesson }) {
  const open = openQuestion(lesson);
  const shown = open ?? lesson.questions.at(-1);
  const earlier = lesson.questions.filter((q) => q.id !== shown?.id).reverse();
  return (
    <div className="lesson-page__layout">
      <div className="lesson-page__main">
        {shown ? (
          <LiveResults lesson={lesson} question={shown} />
        ) : (
          <p className="card lesson-empty">
            Write the first question: it opens on every student’s screen at once.
          </p>
        )}
        {earlier.length > 0 && (
          <details className="card lesson-earlier">
            <summary>Earlier questions ({earlier.length})</summary>
            {earlier.map((q) => (
              <LiveResults key={q.id} lesson={lesson} question={q} />
            ))}
          </details>
        )}
      </div>
      <QuestionComposer lesson={lesson} hasOpen={open !== undefined} />
    </div>
  );
}

function EndLesson({ lesson, onEnded }: { lesson: Lesson; onEnded: (lesson: Lesson) => void }) {
  const [asking, setAsking] = useState(false);
  const [gradebook, setGradebook] = useState(true);
  const [end, { isLoading }] = useEndLessonMutation();
  const gradable = lesson.questions.some((q) => q.kind !== 'poll');
  async function confirm() {
    try {
      const final = await end({ lesson, gradebook: gradebook && gradable }).unwrap();
      onEnded(final);
      setAsking(false);
      toast.success(final.assignmentId ? 'Lesson ended and added to the gradebook.' : 'Lesson ended.');
    } catch {
      toast.error('The lesson could not be ended.');
    }
  }
  return (
    <>
      <Button size="sm" variant="danger" icon={<Square />} onClick={() => setAsking(true)}>
        End lesson
      </Button>
      <Modal
        open={asking}
        onClose={() => setAsking(false)}
        title="End the live lesson?"
        description="The open question is closed and revealed first."
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Keep going
            </Button>
            <Button variant="danger" loading={isLoading} onClick={() => void confirm()}>
              End lesson
            </Button>
          </>
        }
      >
        <label className="lesson-composer__check">
          <input
            type="checkbox"
            checked={gradebook && gradable}
            disabled={!gradable}
            onChange={(e) => setGradebook(e.target.checked)}
          />{' '}
          Add to the gradebook as a graded assignment (a point per question with a right answer)
        </label>
        {!gradable && (
          <p className="lesson-composer__problem">No question with a right answer: nothing to grade.</p>
        )}
      </Modal>
    </>
  );
}
