import { firstName, QUICK_QUESTIONS } from '@classwave/shared';
import { Bot, Send, User } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useConversationKeptInTab } from './chatTab';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { liveSocket } from '../../realtime/socket';
import { selectProfile } from '../auth/authSlice';
import { questionAsked, questionFailed, selectChatMessages, selectChatPending } from './chatSlice';
import './ChatPage.css';

const HELP_TOPICS = [
  'Finding your courses and what is in them',
  'Assignments: what is due and how to submit',
  'Study tips and strategies',
  'Technical problems',
  'Live classes',
];

/** /chatbot: the AI Learning Assistant. Replies are scripted on the server (spec §9); no AI is called. */
export function ChatPage() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const messages = useAppSelector(selectChatMessages);
  const pending = useAppSelector(selectChatPending);
  useConversationKeptInTab(profile?.id, messages);
  const [draft, setDraft] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // The newest message into view by scrolling the conversation itself, never the page: scrolling
  // an element into view (as this once did) also scrolled the window, and on a phone the page
  // opened 125 px down with its title out of sight. Focus moves without scrolling for the same reason.
  // Focus returns to the box when an answer arrives (the box is disabled while waiting), but not
  // on arrival: then the page's heading has it, so a screen reader announces where the user is.
  const wasPending = useRef(pending);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
    if (wasPending.current && !pending) inputRef.current?.focus({ preventScroll: true });
    wasPending.current = pending;
  }, [messages.length, pending]);

  async function ask(text: string) {
    const question = text.trim();
    // Blank input, or input while the assistant is thinking, is ignored (spec §5).
    if (!question || pending) return;
    const socket = liveSocket();
    if (!socket?.connected) {
      toast.error('The assistant is not connected right now. Please try again in a moment.');
      return;
    }
    dispatch(questionAsked(question));
    setDraft('');
    try {
      const ack = await socket.timeout(10_000).emitWithAck('chat:ask', { question });
      if (!ack.ok) {
        dispatch(questionFailed());
        toast.error(ack.message);
      }
    } catch {
      dispatch(questionFailed());
      toast.error('The assistant did not answer. Please try again.');
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void ask(draft);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter starts a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void ask(draft);
    }
  }

  return (
    <div className="chat-page">
      <PageHeader
        title="AI Learning Assistant"
        subtitle="Quick answers about your courses, assignments and studying."
      />
      <section className="chat" aria-label="Conversation">
        <ol ref={listRef} className="chat__messages" aria-live="polite">
          <li className="chat__message chat__message--bot">
            <span className="chat__avatar" aria-hidden="true">
              <Bot size={18} />
            </span>
            <div className="chat__bubble">
              <p>
                Hi {firstName(profile?.fullName)}! I&apos;m your AI Learning Assistant. I can help you with:
              </p>
              <ul>
                {HELP_TOPICS.map((topic) => (
                  <li key={topic}>{topic}</li>
                ))}
              </ul>
              <p>What would you like to know?</p>
            </div>
          </li>
          {messages.map((m) => (
            <li key={m.id} className={`chat__message chat__message--${m.type}`}>
              <span className="chat__avatar" aria-hidden="true">
                {m.type === 'bot' ? <Bot size={18} /> : <User size={18} />}
              </span>
              <div className="chat__bubble">
                <span className="sr-only">{m.type === 'bot' ? 'Assistant: ' : 'You: '}</span>
                {m.content}
              </div>
            </li>
          ))}
          {pending && (
            <li className="chat__message chat__message--bot" aria-label="The assistant is thinking">
              <span className="chat__avatar" aria-hidden="true">
                <Bot size={18} />
              </span>
              <div className="chat__bubble chat__thinking" aria-hidden="true">
                <span />
                <span />
                <span />
              </div>
            </li>
          )}
        </ol>
        {messages.length === 0 && (
          <div className="chat__chips" role="group" aria-label="Quick questions">
            {QUICK_QUESTIONS.map((q) => (
              <button
                key={q}
                type="button"
                className="chat__chip"
                onClick={() => void ask(q)}
                disabled={pending}
              >
                {q}
              </button>
            ))}
          </div>
        )}
        <form className="chat__composer" onSubmit={onSubmit}>
          <label htmlFor="chat-input" className="sr-only">
            Your question
          </label>
          <textarea
            id="chat-input"
            dir="auto"
            ref={inputRef}
            className="chat__input"
            rows={1}
            value={draft}
            maxLength={1000}
            placeholder="Ask a question..."
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={pending}
          />
          <Button
            type="submit"
            disabled={pending || draft.trim() === ''}
            icon={<Send size={18} aria-hidden="true" />}
          >
            Send
          </Button>
        </form>
      </section>
    </div>
  );
}
