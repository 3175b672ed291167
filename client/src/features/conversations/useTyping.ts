import { TYPING_EVERY_MS, type TypingTarget } from '@classwave/shared';
import { useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { liveSocket } from '../../realtime/socket';
import { selectTypists, TYPING_SHOWN_MS, typingKey } from './typingSlice';

/**
 * Returns what to call on every keystroke in a comment box: it tells the server "typing" at most
 * once every TYPING_EVERY_MS for this post or thread (the server drops more as rate-limited).
 */
export function useTypingSignal(target: TypingTarget): () => void {
  const lastSent = useRef(0);
  const targetRef = useRef(target);
  targetRef.current = target;
  return () => {
    const now = Date.now();
    if (now - lastSent.current < TYPING_EVERY_MS) return;
    lastSent.current = now;
    liveSocket()?.emit('typing', targetRef.current, () => {});
  };
}

/** Who else is typing in this post's comments or this thread now: "Ada is typing…", or nothing. */
export function useTypingLine(target: TypingTarget): string {
  const typists = useAppSelector((state) => selectTypists(state, typingKey(target)));
  const [now, setNow] = useState(() => Date.now());
  const shown = typists.filter((t) => now - t.heardAt < TYPING_SHOWN_MS);
  const newest = Math.max(0, ...typists.map((t) => t.heardAt));
  // Re-renders when the newest word runs out, so the line goes away by itself.
  useEffect(() => {
    setNow(Date.now());
    if (newest === 0) return;
    const timer = setTimeout(
      () => setNow(Date.now()),
      Math.max(0, newest + TYPING_SHOWN_MS - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [newest]);
  const names = shown.map((t) => t.user.fullName.split(' ')[0] || t.user.fullName);
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return 'Several people are typing…';
}
