import { ErrorCode, type Ack } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { isUuid, refuse } from '../realtime/listener.js';
import { PANEL_PREFIX, panelRoom } from '../realtime/rooms.js';
import type { Realtime } from '../realtime/socket-server.js';

/** How long another process's word that it shows a panel holds; it is said again every third of it. */
export const WATCH_LEASE_MS = 30_000;

/**
 * Who watches which assignment's live panel (DESIGN §13). A panel is a view of the whole class,
 * recomputed from the roster, the submissions, the drafts and every process's sockets on each
 * change; doing that for panels nobody has open was most of the database's work under the product
 * load (bench S8: a roster of 4,950 read and written into the event log up to once a second per
 * assignment). So a teacher's tab says which panel it shows (`panel:watch`), its socket joins
 * `panel:<assignment>`, and the panel service asks `isWatched` before it computes anything.
 *
 * Across processes: a process holding watchers tells the others (`panel:watched` through the
 * adapter) at once and again every third of WATCH_LEASE_MS; the others count it watched until the
 * lease runs out. A tab that reconnects watches again (the client re-sends on connect).
 */
export function installPanelWatch(
  realtime: Realtime,
  options: {
    /** True when the caller teaches the assignment's course. */
    owns(caller: Caller, assignmentId: string): Promise<boolean>;
  },
) {
  const { io, otherProcesses } = realtime;
  const leases = new Map<string, number>();
  const watchedHere = (assignmentId: string) =>
    (io.of('/').adapter.rooms.get(panelRoom(assignmentId))?.size ?? 0) > 0;
  const tellOthers = (assignmentIds: string[]) => {
    if (otherProcesses && assignmentIds.length > 0) io.serverSideEmit('panel:watched', assignmentIds);
  };

  io.on('panel:watched', (assignmentIds) => {
    if (!Array.isArray(assignmentIds)) return;
    const until = Date.now() + WATCH_LEASE_MS;
    for (const id of assignmentIds) if (typeof id === 'string') leases.set(id, until);
  });

  const renew = otherProcesses
    ? setInterval(() => {
        const now = Date.now();
        for (const [id, until] of leases) if (until < now) leases.delete(id);
        const here = [...io.of('/').adapter.rooms.keys()]
          .filter((room) => room.startsWith(PANEL_PREFIX))
          .map((room) => room.slice(PANEL_PREFIX.length));
        tellOthers(here);
      }, WATCH_LEASE_MS / 3)
    : undefined;
  renew?.unref();

  realtime.handle('panel:watch', async (socket, payload, ack) => {
    // The panel this socket watches is its panel room (at most one), read when it is changed.
    const watching = () =>
      [...socket.rooms].find((room) => room.startsWith(PANEL_PREFIX))?.slice(PANEL_PREFIX.length);
    const answer = (result: Ack) => (typeof ack === 'function' ? ack(result) : undefined);
    const { caller } = socket.data;
    if (caller.role !== 'teacher')
      return answer(refuse(ErrorCode.forbidden, "Only the course's teacher watches its panel."));
    const assignmentId = (payload as { assignmentId?: unknown } | null)?.assignmentId;
    if (assignmentId === null) {
      const was = watching();
      if (was) void socket.leave(panelRoom(was));
      return answer({ ok: true });
    }
    if (typeof assignmentId !== 'string' || !isUuid(assignmentId))
      return answer(refuse(ErrorCode.validationFailed, 'assignmentId must be an assignment id or null.'));
    let owns: boolean;
    try {
      owns = await options.owns(caller, assignmentId);
    } catch {
      return answer(refuse(ErrorCode.serviceUnavailable, 'The panel could not be checked; try again.'));
    }
    if (!owns || socket.disconnected) return answer(refuse(ErrorCode.notFound, 'Assignment not found.'));
    const was = watching();
    if (was && was !== assignmentId) void socket.leave(panelRoom(was));
    void socket.join(panelRoom(assignmentId));
    tellOthers([assignmentId]);
    answer({ ok: true });
  });

  return {
    /** Does any tab, on this process or (by its lease) another, show this assignment's panel? */
    isWatched(assignmentId: string): boolean {
      return watchedHere(assignmentId) || (leases.get(assignmentId) ?? 0) > Date.now();
    },
    close(): void {
      clearInterval(renew);
    },
  };
}
export type PanelWatch = ReturnType<typeof installPanelWatch>;
