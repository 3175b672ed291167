import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PersonRef, TypingEvent, TypingTarget } from '@classwave/shared';

/** How long "Ada is typing…" stays after the last word from her tab (which says so every 2 s while typing). */
export const TYPING_SHOWN_MS = 5000;

/** One key per post or thread, as the server's `typing` names them. */
export const typingKey = (target: TypingTarget) =>
  'postId' in target
    ? `post:${target.postId}`
    : `thread:${target.thread.assignmentId}:${target.thread.studentId}`;

interface Typist {
  user: PersonRef;
  /** When this tab heard it (its own clock: the server's may differ). */
  heardAt: number;
}

/** Who is typing where, as the socket's `typing` messages say (never stored by the server, never replayed). */
export const typingSlice = createSlice({
  name: 'typing',
  initialState: {} as Record<string, Typist[]>,
  reducers: {
    typingHeard: {
      reducer(state, { payload }: PayloadAction<{ key: string; user: PersonRef; heardAt: number }>) {
        const fresh = (state[payload.key] ?? []).filter(
          (t) => t.user.id !== payload.user.id && payload.heardAt - t.heardAt < TYPING_SHOWN_MS,
        );
        state[payload.key] = [...fresh, { user: payload.user, heardAt: payload.heardAt }];
      },
      prepare: (event: TypingEvent) => ({
        payload: { key: typingKey(event), user: event.user, heardAt: Date.now() },
      }),
    },
    /** Their comment arrived: they are no longer typing it. */
    typingStopped(state, { payload }: PayloadAction<{ key: string; userId: string }>) {
      const list = state[payload.key];
      if (list) state[payload.key] = list.filter((t) => t.user.id !== payload.userId);
    },
  },
});

export const { typingHeard, typingStopped } = typingSlice.actions;

const NOBODY: Typist[] = [];
export const selectTypists = (state: { typing: Record<string, Typist[]> }, key: string) =>
  state.typing[key] ?? NOBODY;
