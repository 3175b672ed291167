import { LIVE_EVENT_TYPES, type LiveEvent, type LiveEventType } from '@classwave/shared';
import type { AppThunk } from '../app/store';
import { assignmentsLive } from '../features/assignments/live';
import { authLive } from '../features/auth/live';
import { binLive } from '../features/bin/live';
import { calendarLive } from '../features/calendar/live';
import { classesLive } from '../features/classes/live';
import { conversationsLive } from '../features/conversations/live';
import { coursesLive } from '../features/courses/live';
import { coTeachersLive } from '../features/coteachers/live';
import { dashboardLive } from '../features/dashboard/live';
import { draftsLive } from '../features/drafts/live';
import { filesLive } from '../features/files/live';
import { gradingLive } from '../features/grading/live';
import { lessonsLive } from '../features/lessons/live';
import { notificationsLive } from '../features/notifications/live';
import { rubricsLive } from '../features/rubrics/live';
import { submissionsLive } from '../features/submissions/live';
import { todoLive } from '../features/todo/live';
import type { LiveFeature, LiveHandler } from './liveFeature';

/**
 * Every feature that follows live events, in the order their handlers run for one event: the lists
 * derived from many tables load again first (to-do, calendar), then the caches the event names are
 * patched (a course before its assignments, an assignment before its gradebook and its inbox entry),
 * and the dashboard, refetched, comes last.
 */
const FEATURES: readonly LiveFeature[] = [
  todoLive,
  calendarLive,
  coursesLive,
  coTeachersLive,
  assignmentsLive,
  gradingLive,
  classesLive,
  notificationsLive,
  draftsLive,
  submissionsLive,
  rubricsLive,
  filesLive,
  conversationsLive,
  lessonsLive,
  authLive,
  binLive,
  dashboardLive,
];

/** For each of `types`, the handlers of the features that follow it, in the order above. */
function merge<T extends LiveEventType>(types: readonly T[]) {
  const merged: { [K in T]?: readonly LiveHandler<K>[] } = {};
  for (const type of types) merged[type] = FEATURES.flatMap((feature) => feature.on[type] ?? []);
  return merged;
}

const HANDLERS = merge(LIVE_EVENT_TYPES);

/** Refetch everything on screen: after a gap the server no longer keeps, or on the first connect. */
export const refetchEverything = (): AppThunk => (dispatch) => {
  for (const feature of FEATURES) if (feature.refetch) dispatch(feature.refetch());
};

/**
 * Applies one live event to the RTK Query cache in place (DESIGN §8): the lists, course details,
 * counts and badges that show it change without a refetch. Each feature handles the events it
 * follows in its own `live.ts`; what depends on dates and ownership (the dashboard, the to-do list,
 * the calendar) is refetched instead.
 */
export const applyLiveEvent =
  <T extends LiveEventType>(event: LiveEvent<T>): AppThunk =>
  (dispatch) => {
    // An event type no feature follows (or one this build does not know) changes nothing.
    for (const handle of HANDLERS[event.type] ?? []) dispatch(handle(event));
  };
