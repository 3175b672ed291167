import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { chatRestored, type ChatMessage } from './chatSlice';
import { chatKeyOf as keyOf } from './chatStorage';

/** How many messages a tab keeps across reloads. */
const KEPT = 100;

function isMessage(value: unknown): value is ChatMessage {
  const m = value as ChatMessage;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.id === 'string' &&
    (m.type === 'user' || m.type === 'bot') &&
    typeof m.content === 'string' &&
    typeof m.timestamp === 'string'
  );
}

/** What this tab kept of the user's conversation (nothing when storage is off or the value is not ours). */
export function keptConversation(userId: string): ChatMessage[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(keyOf(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isMessage) : [];
  } catch {
    return [];
  }
}

/**
 * The assistant's conversation survives a reload of the tab (issue 25: it vanished) and stays in the
 * browser (spec §3): in sessionStorage, which a shared school computer forgets when the tab closes,
 * under the user's id, so another account in the same tab never sees it.
 */
export function useConversationKeptInTab(userId: string | undefined, messages: ChatMessage[]): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (userId) dispatch(chatRestored(keptConversation(userId)));
  }, [dispatch, userId]);
  useEffect(() => {
    if (!userId || messages.length === 0) return;
    try {
      sessionStorage.setItem(keyOf(userId), JSON.stringify(messages.slice(-KEPT)));
    } catch {
      // Storage full or off: the conversation is still on screen until the reload.
    }
  }, [userId, messages]);
}
