/**
 * A simulated browser tab's live connection: a real socket.io-client that reconnects by itself and,
 * on every (re)connect, catches up through GET /api/events?after=<last applied id>, applying each
 * event once by id, as client/src/realtime/{LiveSync.tsx, cursor.ts} do — with one difference: a
 * catch-up that fails (no answer, or an error status) is tried again from the same position until
 * answered. LiveSync gives up instead, and the live events that keep arriving then move its cursor
 * past the gap for good; this pass found exactly that (a catch-up sent over a keep-alive connection
 * to the killed process), so the tab here does what LiveSync should.
 */
import { io, type Socket } from 'socket.io-client';
import {
  LIVE_EVENT_TYPES,
  type ClientToServerEvents,
  type LiveEvent,
  type ServerToClientEvents,
} from '@classwave/shared';
import { call, describeOutcome } from './http.js';

interface ReplayAnswer {
  resync: boolean;
  lastId: number;
  events: LiveEvent[];
}

export class LiveClient {
  /** Every event applied, by id (an event that came both live and in a replay is here once). */
  readonly events = new Map<number, LiveEvent>();
  /** How each applied event first arrived. */
  readonly arrivedBy = new Map<number, 'live' | 'replay'>();
  /** Catch-ups the server answered with 'resync' (the gap was no longer kept): never expected here. */
  resyncs = 0;
  connects = 0;
  /** Handshakes the server refused (socket.io does not retry those by itself). */
  readonly refusals: string[] = [];
  /** Catch-ups that got no answer or an error (each was tried again). */
  readonly failedCatchUps: string[] = [];
  /** Each catch-up answered: where it started and what came back (for a failing test's message). */
  readonly catchUps: Array<{ after: number; lastId: number; ids: number[] }> = [];
  private lastId: number;
  /** Where a replay is owed from: set on connect, cleared once a catch-up is answered. */
  private owed: number | undefined;
  private caughtUpOnConnect = 0;
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;

  constructor(
    private readonly base: string,
    private readonly token: string,
    startAfter: number,
  ) {
    this.lastId = startAfter;
    this.socket = io(base, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: (send) => send({ token: this.token }),
      // The web client backs off to 5 s. Here the server is killed every few seconds, far more often
      // than in life: with that back-off a tab can sleep through a dozen short lives of the server
      // and miss more events than one catch-up carries (it would be told to resync and refetch,
      // which is right, but is not the replay this pass examines). So it keeps trying every second.
      reconnectionDelay: 500,
      reconnectionDelayMax: 1000,
    });
    for (const type of LIVE_EVENT_TYPES)
      this.socket.on(type, (event: LiveEvent) => this.apply(event, 'live'));
    this.socket.on('connect_error', (error) => {
      // socket.io retries a failed transport by itself, but not a handshake the server refused.
      if (!this.socket.active) this.refusals.push(error.message);
    });
    this.socket.on('connect', () => {
      this.owed ??= this.lastId;
      void this.catchUp(++this.connects);
    });
  }

  /** Where the stream is now, as a tab learns it before opening its socket. */
  static async head(base: string, token: string): Promise<number> {
    const outcome = await call(base, 'GET', '/api/events', { token });
    if (!outcome.answered || outcome.status !== 200) throw new Error('could not read the event head');
    return (outcome.body as ReplayAnswer).lastId;
  }

  private apply(event: LiveEvent, by: 'live' | 'replay'): void {
    if (this.events.has(event.id)) return;
    this.events.set(event.id, event);
    this.arrivedBy.set(event.id, by);
    if (event.id > this.lastId) this.lastId = event.id;
  }

  private async catchUp(connect: number): Promise<void> {
    // A newer connection takes over (from the same owed position, so nothing is skipped).
    while (connect === this.connects && this.socket.connected) {
      const after = this.owed ?? this.lastId;
      const outcome = await call(this.base, 'GET', `/api/events?after=${after}`, { token: this.token });
      if (!outcome.answered || outcome.status !== 200) {
        this.failedCatchUps.push(`connect ${connect} after ${after}: ${describeOutcome(outcome)}`);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      const answer = outcome.body as ReplayAnswer;
      this.catchUps.push({ after, lastId: answer.lastId, ids: answer.events.map((e) => e.id) });
      if (answer.resync) this.resyncs++;
      else for (const event of answer.events) this.apply(event, 'replay');
      if (answer.lastId > this.lastId) this.lastId = answer.lastId;
      if (connect === this.connects) {
        this.owed = undefined;
        if (this.socket.connected) this.caughtUpOnConnect = connect;
      }
      return;
    }
  }

  /** Resolves once the socket is connected and its catch-up for that connection has been answered. */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(this.socket.connected && this.caughtUpOnConnect === this.connects)) {
      if (Date.now() > deadline) {
        throw new Error(
          `a tab did not reconnect and catch up within ${timeoutMs} ms (connected: ${this.socket.connected})`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.socket.disconnect();
  }
}
