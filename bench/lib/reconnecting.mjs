// Clients that behave like the app's browser tab (client/src/realtime/LiveSync.tsx and socket.ts):
// reconnect with socket.io-client's back-off (500 ms doubling to 5 s, ±50 % jitter), every handshake
// carrying the last event id the tab holds, and catch up from the server's `events:missed` (sent
// before anything live on that connection), keeping each event once.
import { LightClient, now } from './clients.mjs';

const BASE_DELAY = 500;
const MAX_DELAY = 5000;

const keyOf = (title) => {
  const k = typeof title === 'string' ? title.indexOf('~b~') : -1;
  return k < 0 ? -1 : parseInt(title.slice(k + 3), 10);
};

export function createTabs() {
  const tabs = [];
  const stats = {
    initialFailures: 0,
    refusals: 0,
    resyncs: 0,
    liveBeforeCatchUp: 0,
    duplicatesLive: 0,
    replayedAndLive: 0,
    failureSamples: [],
    /** What the server said when it refused a handshake (the first few). */
    refusalSamples: [],
  };
  let url = '';

  class Tab {
    constructor(spec) {
      this.spec = spec;
      this.lastId = null;
      this.keys = new Set();
      this.seenIds = new Set();
      this.liveIds = new Set();
      this.attempts = 0;
      this.everConnected = false;
      this.connected = false;
      this.caughtUpAt = 0;
      this.client = null;
    }

    async connect() {
      this.caughtUpHere = false;
      this.client = new LightClient({
        id: this.spec.id,
        url,
        kind: 'eio',
        // Asked at each handshake, like the app's `auth` function: the token and the cursor now.
        auth: () => (this.lastId === null ? this.spec.auth : { ...this.spec.auth, after: this.lastId }),
        onEvent: (_c, _type, id, key) => {
          // The same event twice on the socket, or a live event ahead of the catch-up, is a server bug.
          if (!this.caughtUpHere) stats.liveBeforeCatchUp++;
          if (this.liveIds.has(id)) stats.duplicatesLive++;
          else if (this.seenIds.has(id)) stats.replayedAndLive++;
          this.liveIds.add(id);
          this.seenIds.add(id);
          if (key >= 0) this.keys.add(key);
          if (this.lastId === null || id > this.lastId) this.lastId = id;
        },
        onCatchUp: (_c, missed) => this.caughtUp(missed),
        onClose: () => {
          this.connected = false;
          this.schedule();
        },
      });
      try {
        // socket.io-client's own connect timeout (20 s): a handshake slower than that is a failure.
        await this.client.open(20_000);
      } catch (error) {
        if (!this.everConnected) {
          stats.initialFailures++;
          if (stats.failureSamples.length < 5) stats.failureSamples.push(`${this.spec.id}: ${error.message}`);
        }
        if (error.message.startsWith('refused')) {
          stats.refusals++;
          if (stats.refusalSamples.length < 5) stats.refusalSamples.push(`${this.spec.id}: ${error.message}`);
        }
        this.schedule();
        return;
      }
      this.attempts = 0;
      this.everConnected = true;
      this.connected = true;
      this.connectedAt = now();
    }

    caughtUp(missed) {
      const after = this.lastId;
      this.caughtUpHere = true;
      if (missed.resync) stats.resyncs++;
      for (const event of missed.events) {
        this.seenIds.add(event.id);
        const key = keyOf(event.data?.title);
        if (key >= 0) this.keys.add(key);
      }
      const last = missed.events.at(-1)?.id ?? missed.lastId;
      const head = Math.max(last, missed.lastId);
      if (this.lastId === null || head > this.lastId) this.lastId = head;
      this.caughtUpAt = now();
      this.catchUps = [
        ...(this.catchUps ?? []).slice(-3),
        { after, got: missed.events.length, resync: missed.resync, head: missed.lastId },
      ];
    }

    schedule() {
      const base = Math.min(BASE_DELAY * 2 ** this.attempts++, MAX_DELAY);
      const delay = base * (0.5 + Math.random());
      setTimeout(() => void this.connect(), delay);
    }

    close() {
      this.client?.close();
      this.schedule = () => {};
    }
  }

  return {
    /** Opens tabs at `rate` per second; resolves when every tab connected once (or after timeoutMs). */
    async open({ url: target, specs, rate, timeoutMs = 60_000 }) {
      url = target;
      const started = now();
      for (let i = 0; i < specs.length; i++) {
        const wait = started + (i * 1000) / rate - now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const tab = new Tab(specs[i]);
        tabs.push(tab);
        void tab.connect();
      }
      while (tabs.some((t) => !t.connected) && now() - started < timeoutMs)
        await new Promise((r) => setTimeout(r, 50));
      return { ms: now() - started, connected: tabs.filter((t) => t.connected).length, ...stats };
    },

    /** Waits until every tab is connected, caught up after `since` and holds every key; times in ms. */
    async waitCaughtUp({ keys, since, timeoutMs }) {
      const deadline = now() + timeoutMs;
      const done = (t) => t.connected && t.caughtUpAt > since && keys.every((k) => t.keys.has(k));
      let lastReconnect = 0;
      while (now() < deadline) {
        if (tabs.every(done)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const t of tabs) if (t.connected && t.connectedAt > lastReconnect) lastReconnect = t.connectedAt;
      const missing = tabs.filter((t) => !keys.every((k) => t.keys.has(k))).length;
      // Back and caught up, yet missing an event: lost, not merely late.
      const lost = tabs.filter(
        (t) => t.connected && t.caughtUpAt > since && !keys.every((k) => t.keys.has(k)),
      );
      return {
        allDone: tabs.every(done),
        doneAt: now(),
        lastReconnectAt: lastReconnect,
        connected: tabs.filter((t) => t.connected).length,
        caughtUp: tabs.filter(done).length,
        missingSome: missing,
        lostAfterCatchUp: lost.length,
        lostSamples: lost.slice(0, 3).map((t) => ({
          id: t.spec.id,
          missing: keys.filter((k) => !t.keys.has(k)),
          lastId: t.lastId,
          connectedMsAfterSince: t.connectedAt - since,
          caughtUpMsAfterSince: t.caughtUpAt - since,
          catchUps: t.catchUps,
        })),
        total: tabs.length,
        ...stats,
      };
    },

    now: () => now(),

    close() {
      for (const t of tabs) t.close();
      tabs.length = 0;
      return true;
    },
  };
}
