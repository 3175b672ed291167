import {
  type BankQuestion,
  LESSON_OPTIONS_MAX,
  questionProblem,
  type CreateQuestionBody,
  type Lesson,
  type LessonQuestionKind,
} from '@classwave/shared';
import { BookmarkPlus, Plus, Send, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { IconButton } from '../../components/IconButton';
import { Input } from '../../components/Input';
import { Select } from '../../components/Select';
import { Textarea } from '../../components/Textarea';
import { tried } from '../conversations/tried';
import { KIND_LABELS } from './answerText';
import { BankPicker } from './BankPicker';
import { usePushQuestionMutation, useSaveToBankMutation } from './lessonsApi';

const KINDS = Object.keys(KIND_LABELS) as LessonQuestionKind[];

/** The teacher writes the next question and pushes it to the class (closing the open one). */
export function QuestionComposer({ lesson, hasOpen }: { lesson: Lesson; hasOpen: boolean }) {
  const [kind, setKind] = useState<LessonQuestionKind>('multiple_choice');
  const [prompt, setPrompt] = useState('');
  const [options, setOptions] = useState(['', '']);
  const [correctChoice, setCorrectChoice] = useState(0);
  const [correctTf, setCorrectTf] = useState(true);
  const [correctText, setCorrectText] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const [push, { isLoading }] = usePushQuestionMutation();
  const [save, saving] = useSaveToBankMutation();
  const choices = kind === 'multiple_choice' || kind === 'poll';

  function body(): CreateQuestionBody {
    const b: CreateQuestionBody = { kind, prompt: prompt.trim() };
    if (choices) b.options = options.map((o) => o.trim());
    if (kind === 'multiple_choice') b.correct = correctChoice;
    if (kind === 'true_false') b.correct = correctTf;
    if (kind === 'number')
      b.correct = correctText.trim() === '' ? Number.NaN : Number(correctText.replace(',', '.'));
    if (kind === 'short_answer') b.correct = correctText;
    if (kind === 'poll') b.anonymous = anonymous;
    return b;
  }
  const problem =
    prompt.trim() === ''
      ? 'Write the question.'
      : choices && options.some((o) => o.trim() === '')
        ? 'Fill in every choice.'
        : questionProblem(body());

  /** A question from the bank into the composer, to push as it is or changed. */
  function fill(q: BankQuestion) {
    setKind(q.kind);
    setPrompt(q.prompt);
    setOptions(q.options.length >= 2 ? q.options : ['', '']);
    setCorrectChoice(typeof q.correct === 'number' && q.kind === 'multiple_choice' ? q.correct : 0);
    setCorrectTf(q.correct !== false);
    setCorrectText(q.kind === 'number' || q.kind === 'short_answer' ? String(q.correct ?? '') : '');
    setAnonymous(q.anonymous);
  }

  async function saveToBank() {
    if (problem || saving.isLoading) return;
    if (
      await tried(
        save({ courseId: lesson.courseId, body: body() }).unwrap(),
        'The question could not be saved.',
      )
    )
      toast.success('Saved to the course’s question bank.');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (problem || isLoading) return;
    if (!(await tried(push({ lesson, body: body() }).unwrap(), 'The question could not be pushed.'))) return;
    setPrompt('');
    setOptions(['', '']);
    setCorrectChoice(0);
    setCorrectText('');
  }

  return (
    <form className="card lesson-composer" onSubmit={(e) => void submit(e)} aria-label="Next question">
      <div className="lesson-composer__head">
        <h2 className="lesson-section-title">Next question</h2>
        <BankPicker courseId={lesson.courseId} onPick={fill} />
      </div>
      <Select label="Kind" value={kind} onChange={(e) => setKind(e.target.value as LessonQuestionKind)}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABELS[k]}
          </option>
        ))}
      </Select>
      <Textarea
        label="Question"
        rows={2}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        maxLength={1000}
      />
      {choices && (
        <fieldset className="lesson-composer__choices">
          <legend>{kind === 'poll' ? 'Choices' : 'Choices (mark the right one)'}</legend>
          {options.map((o, i) => (
            <div key={i} className="lesson-composer__choice">
              {kind === 'multiple_choice' && (
                <input
                  type="radio"
                  name="correct-choice"
                  aria-label={`Choice ${i + 1} is the right answer`}
                  checked={correctChoice === i}
                  onChange={() => setCorrectChoice(i)}
                />
              )}
              <Input
                label={`Choice ${i + 1}`}
                value={o}
                maxLength={200}
                onChange={(e) => setOptions(options.map((x, j) => (j === i ? e.target.value : x)))}
              />
              {options.length > 2 && (
                <IconButton
                  label={`Remove choice ${i + 1}`}
                  icon={<X />}
                  onClick={() => {
                    setOptions(options.filter((_, j) => j !== i));
                    if (correctChoice >= i && correctChoice > 0) setCorrectChoice(correctChoice - 1);
                  }}
                />
              )}
            </div>
          ))}
          {options.length < LESSON_OPTIONS_MAX && (
            <Button variant="ghost" size="sm" icon={<Plus />} onClick={() => setOptions([...options, ''])}>
              Add a choice
            </Button>
          )}
        </fieldset>
      )}
      {kind === 'true_false' && (
        <Select
          label="Right answer"
          value={String(correctTf)}
          onChange={(e) => setCorrectTf(e.target.value === 'true')}
        >
          <option value="true">True</option>
          <option value="false">False</option>
        </Select>
      )}
      {(kind === 'number' || kind === 'short_answer') && (
        <Input
          label="Right answer"
          inputMode={kind === 'number' ? 'decimal' : 'text'}
          hint={kind === 'short_answer' ? 'Compared without case or extra spaces.' : undefined}
          value={correctText}
          maxLength={200}
          onChange={(e) => setCorrectText(e.target.value)}
        />
      )}
      {kind === 'poll' && (
        <label className="lesson-composer__check">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />{' '}
          Anonymous (counts only, for you too)
        </label>
      )}
      <div className="lesson-composer__buttons">
        <Button type="submit" icon={<Send />} loading={isLoading} aria-disabled={problem !== null}>
          {hasOpen ? 'Close the open one and push' : 'Push to the class'}
        </Button>
        <Button
          variant="ghost"
          icon={<BookmarkPlus />}
          loading={saving.isLoading}
          aria-disabled={problem !== null}
          onClick={() => void saveToBank()}
        >
          Save to the bank
        </Button>
      </div>
      {problem && prompt.trim() !== '' && (
        <p className="lesson-composer__problem">{problem.replace(/^body\./, '')}</p>
      )}
    </form>
  );
}
