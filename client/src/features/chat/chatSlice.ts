import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { accountSwitched, signedOut } from '../auth/authSlice';

/** A chat message; kept in the browser only (spec §3): in this tab's sessionStorage across reloads (chatTab.ts). */
export interface ChatMessage {
  id: string;
  type: 'user' | 'bot';
  content: string;
  /** ISO 8601. */
  timestamp: string;
}

export interface ChatState {
  messages: ChatMessage[];
  /** A question is on its way and the assistant is "thinking". */
  pending: boolean;
}

const initialState: ChatState = { messages: [], pending: false };
let nextId = 0;
const message = (type: ChatMessage['type'], content: string, timestamp: string): ChatMessage => ({
  // With the time: a conversation restored after a reload keeps its ids, and the count starts again.
  id: `${type}-${Date.parse(timestamp) || 0}-${++nextId}`,
  type,
  content,
  timestamp,
});

export const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    questionAsked: {
      reducer(state, action: PayloadAction<ChatMessage>) {
        state.messages.push(action.payload);
        state.pending = true;
      },
      prepare: (content: string) => ({ payload: message('user', content, new Date().toISOString()) }),
    },
    answerReceived: {
      reducer(state, action: PayloadAction<ChatMessage>) {
        state.messages.push(action.payload);
        state.pending = false;
      },
      prepare: (content: string, at: string) => ({ payload: message('bot', content, at) }),
    },
    /** The conversation this tab had before a reload (chatTab.ts); never over one already under way. */
    chatRestored(state, action: PayloadAction<ChatMessage[]>) {
      if (state.messages.length === 0) state.messages = action.payload;
    },
    /** The server refused the question or it could not be sent: the user may try again. */
    questionFailed(state) {
      state.pending = false;
    },
  },
  extraReducers: (builder) => {
    // A conversation belongs to the user who had it.
    builder.addCase(signedOut, () => initialState);
    builder.addCase(accountSwitched, () => initialState);
  },
  selectors: {
    selectChatMessages: (state) => state.messages,
    selectChatPending: (state) => state.pending,
  },
});

export const { questionAsked, answerReceived, questionFailed, chatRestored } = chatSlice.actions;
export const { selectChatMessages, selectChatPending } = chatSlice.selectors;
