const PREFIX = 'classwave:chat:';

/** Where a tab keeps one user's conversation (sessionStorage). */
export const chatKeyOf = (userId: string) => `${PREFIX}${userId}`;

/** Signing out forgets every conversation this tab kept: the next person at the computer sees none. */
export function forgetKeptConversations(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // Storage off: nothing was kept.
  }
}
