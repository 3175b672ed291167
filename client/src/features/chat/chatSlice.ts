import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { accountSwitched, signedOut } from '../auth/authSlice';

/** A chat message; kept in the browser only (spec §3). */
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
  id: `${type}-${++nextId}`,
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

export const { questionAsked, answerReceived, questionFailed } = chatSlice.actions;
export const { selectChatMessages, selectChatPending } = chatSlice.selectors;
