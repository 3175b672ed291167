import type { Core } from '../core.js';
import type { AppModule } from '../module.js';
import type { OutboxRules } from '../realtime/outbox.js';
import { courseRoom, toItsStudents } from '../realtime/rooms.js';
import { bumpCourseSequences, bumpSequence } from './revisions.js';
import { calendarFeedRoutes, calendarRoutes } from './routes.js';
import { createCalendarService } from './service.js';

/**
 * What a subscribed calendar must hear again (its SEQUENCE grows, revisions.ts), in the change's
 * own transaction. Only the members' view of an edit counts: the teacher's own view, a join-code
 * reset or an excusal's one-student view changes nothing in the feed.
 */
const calendarRules: OutboxRules = {
  async 'assignment:updated'(assignment, { tx, audience }) {
    if (toItsStudents(assignment, audience)) await bumpSequence(tx, assignment.id);
  },
  // Every assignment's SUMMARY names its course, so a course edit moves them all on.
  async 'course:updated'(course, { tx, audience }) {
    if (audience.includes(courseRoom(course.id))) await bumpCourseSequences(tx, course.id);
  },
};

const calendarOf = (core: Core) => createCalendarService({ ...core, appOrigin: core.config.appOrigin });

/** The calendar page and the personal ICS feed (DESIGN §14); the feed needs no sign-in. */
export const calendar: AppModule = {
  name: 'calendar',
  setup: (core) => core.outbox.rules('calendar', calendarRules),
  routes: (app, { core }) => calendarRoutes(app, { calendar: calendarOf(core) }),
  publicRoutes: (app, { core }) => calendarFeedRoutes(app, { calendar: calendarOf(core) }),
};
