import type { LiveEvent, LiveEventType } from '@classwave/shared';
import type { AppThunk, RootState } from '../app/store';

/*
 * What a feature's `live.ts` is made of (DESIGN §16). This file imports nothing of the features, so
 * every `live.ts` and `applyLiveEvent`, which merges them, can depend on it without a circle.
 */

/** One feature's answer to one live event: a thunk, so it can read the state it patches. */
export type LiveHandler<T extends LiveEventType> = (event: LiveEvent<T>) => AppThunk;

/** One feature's handlers, by the event types it follows. */
export type LiveHandlers = { readonly [T in LiveEventType]?: LiveHandler<T> };

/** A feature's part in keeping a tab live. */
export interface LiveFeature {
  readonly on: LiveHandlers;
  /** Loads the feature's shown data again: after a gap the server no longer keeps, or on the first connect. */
  readonly refetch?: () => AppThunk;
}

/** A student's membership changed (DESIGN §11): the teacher's roster and gradebook, the student's lists. */
export const MEMBER_EVENTS = [
  'member:joined',
  'member:left',
  'member:removed',
  'member:restored',
] as const satisfies readonly LiveEventType[];

/**
 * Events that move a to-do item or a due date: the to-do list and the calendar depend on
 * membership, dates and the viewer's own work, and load again on them.
 */
export const WORK_EVENTS = [
  'assignment:created',
  'assignment:deleted',
  'assignment:updated',
  // One student's own due date (DESIGN §20).
  'assignment:extended',
  'submission:created',
  'submission:graded',
  'submission:withdrawn',
  ...MEMBER_EVENTS,
  'course:deleted',
] as const satisfies readonly LiveEventType[];

/** The same handler for each of `types` (events whose data a feature reads alike). */
export function onEvery<T extends LiveEventType>(types: readonly T[], handler: LiveHandler<T>) {
  // A handler of any of `types` is a handler of each one.
  const handlers: { [K in T]?: LiveHandler<K> } = {};
  for (const type of types) handlers[type] = handler;
  return handlers;
}

/**
 * Whether the signed-in user teaches: a teacher's tabs keep counts and gradebooks, a student's
 * their own work, and the same event patches each differently.
 */
export const isTeacher = (state: RootState) => state.auth.profile?.role === 'teacher';
