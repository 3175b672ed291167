import { describe, expect, it } from 'vitest';
import { answerProblem, isCorrectAnswer, questionProblem } from './lessonRules.js';

describe('live lesson rules', () => {
  it('scores accuracy by kind: short answers without case or spaces, numbers without float noise, polls never', () => {
    expect(isCorrectAnswer('short_answer', 'Paris', '  pARis ')).toBe(true);
    expect(isCorrectAnswer('short_answer', 'New York', 'new   york')).toBe(true);
    expect(isCorrectAnswer('short_answer', 'Paris', 'Lyon')).toBe(false);
    expect(isCorrectAnswer('number', 0.3, 0.1 + 0.2)).toBe(true);
    expect(isCorrectAnswer('number', 3, 3.01)).toBe(false);
    expect(isCorrectAnswer('multiple_choice', 1, 1)).toBe(true);
    expect(isCorrectAnswer('true_false', false, true)).toBe(false);
    expect(isCorrectAnswer('poll', null, 0)).toBeNull();
  });

  it('names the field at fault in a question or an answer that does not fit its kind', () => {
    expect(questionProblem({ kind: 'true_false', prompt: 'Q', correct: true })).toBeNull();
    expect(questionProblem({ kind: 'poll', prompt: 'Q', options: ['a', 'b'], anonymous: true })).toBeNull();
    expect(
      questionProblem({ kind: 'multiple_choice', prompt: 'Q', options: ['a', 'b'], correct: 2 }),
    ).toContain('body.correct');
    expect(answerProblem('multiple_choice', ['a', 'b'], 2)).toContain('body.answer');
    expect(answerProblem('number', [], Number.POSITIVE_INFINITY)).toContain('body.answer');
    expect(answerProblem('short_answer', [], 'x'.repeat(201))).toContain('body.answer');
    expect(answerProblem('true_false', [], true)).toBeNull();
  });
});
