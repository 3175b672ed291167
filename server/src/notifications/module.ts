import type { Core } from '../core.js';
import { isEvent, type AudiencedEvent, type CommittedLive } from '../events.js';
import type { AppModule } from '../module.js';
import { notificationJobs } from './jobs.js';
import { memberInboxKey } from './member-inbox.js';
import { notificationRoutes } from './routes.js';
import { notificationRules } from './rules.js';
import { createNotificationService } from './service.js';
import { createSubmissionBatcher } from './submission-batches.js';

/**
 * Notifications (DESIGN §14): derived from each change in its own transaction (the outbox's
 * rules), timed ones and e-mails run by the jobs table, and the work too large for the change's
 * transaction done right after its commit by a bus subscriber, with its job as the net.
 */
function setup(core: Core) {
  const { bus, jobs, afterCommit } = core;
  core.outbox.rules('notifications', notificationRules);
  jobs.handle(notificationJobs);
  const batcher = createSubmissionBatcher(core);
  const onLive = (event: AudiencedEvent, committed: CommittedLive) => {
    // The class's inbox rows for a new assignment: before the teacher's answer, so they do not run
    // under the next write (member-inbox.ts). The members' view only: the teacher's carries counts
    // (an assignment for some students reaches their own rooms, not the course's, DESIGN §20). Not
    // when its writer wrote them itself (`derived`: a new assignment to a class, issue 30).
    if (isEvent(event, 'assignment:created') && event.data.submissionCount === null && !committed.derived)
      committed.hold(jobs.runNow([memberInboxKey(event.data.id)]));
    // The teacher's "new submissions" batch: the submit's answer does not wait for it.
    if (isEvent(event, 'submission:created'))
      afterCommit.track(batcher.submitted(event.data.assignmentId, event.data.id));
  };
  bus.on('live', onLive);
  return () => void bus.off('live', onLive);
}

export const notifications: AppModule = {
  name: 'notifications',
  setup,
  routes: (app, { core }) => notificationRoutes(app, { notifications: createNotificationService(core) }),
};
