import {
  CHAT_QUESTION_MAX_LENGTH,
  CHATBOT_REPLY_DELAY_MS,
  chatReply,
  ErrorCode,
  type Ack,
} from '@classwave/shared';
import type { Core } from '../core.js';
import { chatbotConversations } from '../db/schema.js';
import { isBrokenText } from '../http/validation.js';
import type { AppModule } from '../module.js';
import { refuse } from '../realtime/listener.js';
import { slidingWindow } from './flood.js';

const CHAT_FLOOD = { max: 10, windowMs: 60_000 };

/**
 * The learning assistant (spec §3): `chat:ask` on the socket, a scripted reply after 1–2 s to the
 * asking tab only, each question and answer stored. A blank, broken, over-long or second pending
 * question is refused, and so is a flood (counted per user, not per tab).
 */
function setup(core: Core): void {
  const { clock, db, log } = core;
  const delay = core.options.chatDelayMs ?? CHATBOT_REPLY_DELAY_MS;
  const flood = slidingWindow(CHAT_FLOOD);

  core.realtime.handle('chat:ask', (socket, payload, ack) => {
    const { caller } = socket.data;
    const answer = (result: Ack) =>
      typeof ack === 'function' ? ack(result) : result.ok || socket.emit('error:message', result);
    const question = (payload as { question?: unknown } | null)?.question;
    if (typeof question !== 'string' || question.trim() === '') {
      return answer(refuse(ErrorCode.validationFailed, 'Type a question first.'));
    }
    if (isBrokenText(question)) {
      return answer(
        refuse(ErrorCode.validationFailed, 'The question must be valid text: no NUL characters.'),
      );
    }
    if (question.length > CHAT_QUESTION_MAX_LENGTH) {
      return answer(
        refuse(
          ErrorCode.validationFailed,
          `Questions can be at most ${CHAT_QUESTION_MAX_LENGTH} characters.`,
        ),
      );
    }
    if (socket.data.chatPending)
      return answer(refuse(ErrorCode.conflict, 'Please wait for the answer to your last question.'));
    // Counted per user (on this process), not per socket: more tabs must not mean more questions.
    if (!flood.allow(caller.userId, Date.now())) {
      return answer(
        refuse(ErrorCode.rateLimited, 'That is a lot of questions at once. Please wait a minute.'),
      );
    }
    socket.data.chatPending = true;
    answer({ ok: true });

    const text = question.trim();
    setTimeout(
      async () => {
        const reply = chatReply(text);
        try {
          await db
            .insert(chatbotConversations)
            .values({ userId: caller.userId, question: text, answer: reply, createdAt: clock.now() });
        } catch (err) {
          // The spec keeps the chat going when the log fails; the failure is only logged.
          log.warn({ err }, 'could not store the chat conversation');
        }
        socket.data.chatPending = false;
        socket.emit('chat:reply', { question: text, answer: reply, at: clock.now().toISOString() });
      },
      delay.min + Math.random() * (delay.max - delay.min),
    );
  });
}

export const chat: AppModule = { name: 'chat', setup };
