import {
  LESSON_SHORT_ANSWER_MAX,
  type Lesson,
  type LessonAnswerValue,
  type LessonQuestion,
} from '@classwave/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { tried } from '../conversations/tried';
import { useAnswerQuestionMutation } from './lessonsApi';

/**
 * A student's answer to the open question: a choice (sent at once), True/False, a number or a few
 * words. Answering again replaces the answer: the last one before the close counts.
 */
export function AnswerForm({ lesson, question }: { lesson: Lesson; question: LessonQuestion }) {
  const [send, { isLoading }] = useAnswerQuestionMutation();
  const [text, setText] = useState('');
  const mine = question.mine?.answer;
  const answer = (value: LessonAnswerValue) =>
    void tried(
      send({ lesson, questionId: question.id, answer: value }).unwrap(),
      'Your answer could not be sent.',
    );

  if (question.kind === 'multiple_choice' || question.kind === 'poll' || question.kind === 'true_false') {
    const choices: Array<[LessonAnswerValue, string]> =
      question.kind === 'true_false'
        ? [
            [true, 'True'],
            [false, 'False'],
          ]
        : question.options.map((o, i) => [i, o]);
    return (
      <div className="lesson-choices" role="group" aria-label="Your answer">
        {choices.map(([value, label]) => (
          <button
            key={label + String(value)}
            type="button"
            className={mine === value ? 'lesson-choice is-chosen' : 'lesson-choice'}
            aria-pressed={mine === value}
            disabled={isLoading}
            onClick={() => answer(value)}
          >
            {label}
          </button>
        ))}
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = question.kind === 'number' ? Number(text.replace(',', '.')) : text.trim();
    if (question.kind === 'number' ? text.trim() === '' || !Number.isFinite(value) : value === '') return;
    answer(value);
    setText('');
  }
  return (
    <form className="lesson-free-answer" onSubmit={submit}>
      <Input
        label={question.kind === 'number' ? 'Your answer (a number)' : 'Your answer'}
        inputMode={question.kind === 'number' ? 'decimal' : 'text'}
        maxLength={LESSON_SHORT_ANSWER_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
      />
      <Button type="submit" loading={isLoading}>
        {mine === undefined ? 'Send answer' : 'Change answer'}
      </Button>
    </form>
  );
}
