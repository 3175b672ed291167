import { describe, expect, it } from 'vitest';
import { signedOut } from '../auth/authSlice';
import { answerReceived, chatSlice, questionAsked, questionFailed } from './chatSlice';

const reduce = chatSlice.reducer;

describe('chatSlice', () => {
  it('marks the assistant as thinking from the question until the answer', () => {
    let state = reduce(undefined, questionAsked('How do I submit?'));
    expect(state.pending).toBe(true);
    expect(state.messages).toMatchObject([{ type: 'user', content: 'How do I submit?' }]);
    state = reduce(state, answerReceived('Open Assignments.', '2026-11-21T10:00:00.000Z'));
    expect(state.pending).toBe(false);
    expect(state.messages.map((m) => m.type)).toEqual(['user', 'bot']);
    expect(new Set(state.messages.map((m) => m.id)).size).toBe(2);
  });

  it('lets the user try again after a refused question', () => {
    const state = reduce(reduce(undefined, questionAsked('x')), questionFailed());
    expect(state.pending).toBe(false);
  });

  it('forgets the conversation on sign-out', () => {
    const state = reduce(reduce(undefined, questionAsked('x')), signedOut());
    expect(state).toEqual({ messages: [], pending: false });
  });
});
