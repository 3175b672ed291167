import type { Post } from '@classwave/shared';
import { useEffect, useRef } from 'react';
import { useMarkSeenMutation } from './conversationsApi';

/** Posts this tab has told the server it showed: each is sent once per tab, whatever re-renders. */
const told = new Set<string>();

/**
 * Marks a post seen once any of it is on screen (a long post may never be half in view), for the
 * teacher's "seen by N of M". A teacher's reading and a scheduled post do not count, and a post
 * already marked is not sent again.
 */
export function useSeen<T extends HTMLElement>(post: Post, counts: boolean) {
  const ref = useRef<T>(null);
  const [markSeen] = useMarkSeenMutation();
  const skip = !counts || post.seenByMe || post.publishedAt === null || told.has(post.id);
  useEffect(() => {
    const element = ref.current;
    if (skip || !element) return;
    const mark = () => {
      if (told.has(post.id)) return;
      told.add(post.id);
      // A failed mark may be tried again by the next showing.
      markSeen(post)
        .unwrap()
        .catch(() => told.delete(post.id));
    };
    // Without an observer (an old browser, jsdom), shown is shown.
    if (typeof IntersectionObserver === 'undefined') return mark();
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        mark();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [skip, post, markSeen]);
  return ref;
}
