/** What one tab tells the others about the session (DESIGN §8: sign-in and sign-out travel between tabs). */
export type AuthMessage = { type: 'signed-in' } | { type: 'signed-out' };

export const AUTH_CHANNEL_NAME = 'classwave-auth';

function isAuthMessage(value: unknown): value is AuthMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type } = value as { type?: unknown };
  return type === 'signed-in' || type === 'signed-out';
}

const hasBroadcastChannel = () => typeof BroadcastChannel !== 'undefined';

// One sending channel per tab, opened on first use. A channel never hears its own messages,
// so this tab does not react to what it sends.
let sender: BroadcastChannel | null = null;

/** Tells the other tabs of this browser. A no-op where BroadcastChannel is missing. */
export function broadcastAuth(message: AuthMessage): void {
  if (!hasBroadcastChannel()) return;
  sender ??= new BroadcastChannel(AUTH_CHANNEL_NAME);
  sender.postMessage(message);
}

/** Calls `listener` for each auth message from another tab; returns the unsubscribe function. */
export function subscribeToAuth(listener: (message: AuthMessage) => void): () => void {
  if (!hasBroadcastChannel()) return () => {};
  const channel = new BroadcastChannel(AUTH_CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (isAuthMessage(event.data)) listener(event.data);
  };
  return () => channel.close();
}
