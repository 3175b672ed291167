import { RETURN_UNDO_SECONDS, type ScheduledReturn } from '@classwave/shared';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { serverNow } from '../../api/serverClock';
import { useAppStore } from '../../app/hooks';
import type { AppStore } from '../../app/store';
import { assignmentsApi } from '../assignments/assignmentsApi';
import {
  isScheduled,
  useReturnGradesMutation,
  useUndoReturnMutation,
  type ReturnGradesArgs,
} from './gradingApi';

const plural = (n: number) => `${n} grade${n === 1 ? '' : 's'}`;
/** How long the toast waits to see the grades arrive back as returned before saying they are on their way. */
const CONFIRM_WAIT_MS = 15_000;

/** Whether this tab's copy of the assignment's submissions shows every one of `ids` returned. */
function allReturned(store: AppStore, assignmentId: string, ids: readonly string[]): boolean {
  const select = assignmentsApi.endpoints.getSubmissions.select(assignmentId);
  // The store's type knows the api's tags only as the features inject them.
  const list = select(store.getState() as unknown as Parameters<typeof select>[0]).data;
  return ids.every((id) => {
    const submission = list?.find((s) => s.id === id);
    return submission !== undefined && !submission.held;
  });
}

/**
 * Return held grades with an undo window kept by the server (DESIGN §13): the server schedules
 * exactly the grades held now for RETURN_UNDO_SECONDS ahead, and a toast counts down to that time
 * (by the server's clock) with Undo. Closing or reloading the tab changes nothing: the Return still
 * goes out, and only Undo stops it. Once the window ends the toast waits for the grades to come back
 * as returned (the live events) and says so.
 */
export function useReturnWithUndo(): (args: ReturnGradesArgs) => void {
  const [returnGrades] = useReturnGradesMutation();
  const [undoReturn] = useUndoReturnMutation();
  const store = useAppStore();

  function countDown(toastId: string, scheduled: ScheduledReturn) {
    const n = scheduled.submissionIds.length;
    const runAt = Date.parse(scheduled.runAt);
    const undo = () => {
      window.clearInterval(timer);
      undoReturn(scheduled.id)
        .unwrap()
        .then(
          // A toast of its own: sonner is still taking the pressed one away.
          () => toast('Return undone: nothing was sent', { duration: 4000 }),
          (error: unknown) => toast.error(apiErrorMessage(error, 'The Return could not be undone.')),
        );
    };
    const confirm = () => {
      toast.loading(`Sending ${plural(n)} to students…`, {
        id: toastId,
        action: undefined,
        duration: Number.POSITIVE_INFINITY,
      });
      const done = () => allReturned(store, scheduled.assignmentId, scheduled.submissionIds);
      let finished = false;
      const finish = (confirmed: boolean) => {
        if (finished) return;
        finished = true;
        unsubscribe();
        window.clearTimeout(giveUp);
        if (confirmed) toast.success(`${plural(n)} returned to students`, { id: toastId, duration: 5000 });
        else toast(`${plural(n)} on their way to students`, { id: toastId, duration: 5000 });
      };
      const unsubscribe = store.subscribe(() => done() && finish(true));
      const giveUp = window.setTimeout(() => finish(done()), CONFIRM_WAIT_MS);
      if (done()) finish(true);
    };
    const show = () => {
      // Never more than the window: the clock estimate may be a fraction of a second behind.
      const left = Math.min(RETURN_UNDO_SECONDS, Math.ceil((runAt - serverNow().getTime()) / 1000));
      if (left <= 0) {
        window.clearInterval(timer);
        confirm();
        return;
      }
      toast(`Returning ${plural(n)} in ${left} s`, {
        id: toastId,
        duration: Number.POSITIVE_INFINITY,
        action: { label: 'Undo', onClick: undo },
      });
    };
    // Four ticks a second: the seconds shown change on time whatever the timer's drift.
    const timer = window.setInterval(show, 250);
    show();
  }

  return (args) => {
    const toastId = `return-${args.assignmentId}-${Date.now()}`;
    returnGrades({ ...args, undoable: true })
      .unwrap()
      .then(
        (outcome) => {
          if (isScheduled(outcome)) countDown(toastId, outcome);
          else toast(`${plural(outcome.returned)} returned to students`, { id: toastId });
        },
        (error: unknown) => toast.error(apiErrorMessage(error, 'Failed to return grades.'), { id: toastId }),
      );
  };
}
