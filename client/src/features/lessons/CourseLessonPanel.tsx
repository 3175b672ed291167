import { Play, Radio } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../components/Button';
import { ButtonLink } from '../../components/ButtonLink';
import { tried } from '../conversations/tried';
import { useGetCurrentLessonQuery, useStartLessonMutation } from './lessonsApi';
import './lessons.css';

/** On the course page: the teacher starts the live lesson (or goes back to it); a student sees one is running. */
export function CourseLessonPanel({ courseId, teaches }: { courseId: string; teaches: boolean }) {
  const live = useGetCurrentLessonQuery(courseId).data?.lesson ?? null;
  const [start, { isLoading }] = useStartLessonMutation();
  const navigate = useNavigate();
  if (!teaches && !live) return null;
  const lessonPath = `/courses/${courseId}/lesson`;
  return (
    <div className={live ? 'lesson-banner is-live' : 'lesson-banner'}>
      <Radio aria-hidden="true" size={18} />
      <span>{live ? 'A live lesson is running in this course.' : 'Ask the whole class, live.'}</span>
      {teaches &&
        (live ? (
          <ButtonLink to={lessonPath} size="sm">
            Open the live lesson
          </ButtonLink>
        ) : (
          <Button
            size="sm"
            icon={<Play />}
            loading={isLoading}
            onClick={() =>
              void tried(start(courseId).unwrap(), 'The lesson could not be started.').then(
                (ok) => ok && void navigate(lessonPath),
              )
            }
          >
            Start a live lesson
          </Button>
        ))}
    </div>
  );
}
