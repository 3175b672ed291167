// The load generator: a child process pinned to the load core, driven by the orchestrator over IPC.
// It holds the socket clients, sends HTTP load (closed loop with autocannon, or open loop at a fixed
// rate) and matches every event to the write that caused it, on the shared host clock.
import http from 'node:http';
import autocannon from 'autocannon';
import { LightClient, RealClient, now } from './clients.mjs';
import { Histograms } from './stats.mjs';
import { createTabs } from './reconnecting.mjs';
import { putFile, tusUploads } from './uploads.mjs';

const clients = new Map(); // id -> client
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const tabs = createTabs();

// ---- events -------------------------------------------------------------------------------------

/** What the current workload waits for: key -> { t0, waiting: Set<clientId>, got: Set<clientId>, check } */
let pending = new Map();
let tally = null;

function newTally() {
  return {
    events: new Histograms(),
    received: 0,
    lost: 0,
    duplicated: 0,
    unexpected: 0,
    unkeyed: 0,
    derived: 0,
    malformed: 0,
    wrongData: 0,
    samples: [],
  };
}

/**
 * Events a write brings along rather than the write itself (its notification, the live panel's and
 * gradebook's counts): no request awaits them, so they are counted apart, not as unmatched.
 */
const DERIVED = new Set(['notification:created', 'notifications:read', 'assignment:panel', 'gradebook:cell']);

function onEvent(client, type, id, key, t, _text, payload) {
  if (!tally) return;
  tally.received++;
  if (id > 0) {
    if (client.lastIds.has(id)) {
      tally.duplicated++;
      return;
    }
    client.lastIds.add(id);
  }
  if (DERIVED.has(type)) {
    tally.derived++;
    return;
  }
  const entry = key >= 0 ? pending.get(key) : undefined;
  if (!entry) {
    tally.unkeyed++;
    return;
  }
  if (entry.got.has(client.id)) {
    tally.duplicated++;
    return;
  }
  entry.got.add(client.id);
  if (!entry.waiting.delete(client.id)) {
    tally.unexpected++;
    if (tally.samples.length < 5) tally.samples.push(`unexpected ${type} key ${key} at ${client.id}`);
    return;
  }
  tally.events.record(client.label, t - entry.t0);
  if (entry.type && type !== entry.type) {
    tally.wrongData++;
    if (tally.samples.length < 5) tally.samples.push(`${client.id} got ${type}, expected ${entry.type}`);
  }
  if (payload && entry.check) {
    for (const [field, value] of Object.entries(entry.check))
      if (payload.data?.[field] !== value) {
        tally.wrongData++;
        if (tally.samples.length < 5) tally.samples.push(`${client.id}: data.${field} != ${value}`);
      }
  }
  if (entry.waiting.size === 0) entry.resolve?.();
}

function onClose(client) {
  client.closedAt = now();
}

// ---- HTTP ---------------------------------------------------------------------------------------

/** One HTTP request; resolves { status, ms, body } (status 0 on a network error). */
function request({ url, method = 'GET', headers = {}, body }, t0, wantBody = true) {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => {
          if (wantBody || chunks.length < 4) chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: now() - t0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, ms: now() - t0, body: String(error) }));
    req.end(data);
  });
}

// ---- commands -----------------------------------------------------------------------------------

const commands = {
  /** Closed loop: autocannon for `duration` seconds. */
  async autocannon({ url, headers, connections, duration }) {
    const result = await autocannon({ url, headers, connections, duration, pipelining: 1 });
    return {
      requests: result.requests.total,
      rps: result.requests.total / duration,
      latency: {
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    };
  },

  /**
   * Connects clients: specs [{ id, auth, rooms, label, real }] to `url`, `concurrency` handshakes at a
   * time, or at `rate` per second when given. Returns how many connected and failed, and how long it took.
   */
  async connect({ url, kind = 'eio', specs, concurrency = 100, rate, timeoutMs = 15_000 }) {
    const started = now();
    let failed = 0;
    const errors = [];
    const failedIds = [];
    const openOne = async (spec) => {
      const Client = spec.real ? RealClient : LightClient;
      const client = new Client({ ...spec, url, kind, onEvent, onClose, lastIds: new Set() });
      try {
        await client.open(timeoutMs);
        clients.set(spec.id, client);
      } catch (error) {
        failed++;
        failedIds.push(spec.id);
        if (errors.length < 5) errors.push(`${spec.id}: ${error.message}`);
      }
    };
    if (rate) {
      const jobs = [];
      for (let i = 0; i < specs.length; i++) {
        const due = started + (i * 1000) / rate;
        const wait = due - now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        jobs.push(openOne(specs[i]));
      }
      await Promise.all(jobs);
    } else {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, specs.length) }, async () => {
          while (next < specs.length) await openOne(specs[next++]);
        }),
      );
    }
    return { connected: specs.length - failed, failed, failedIds, errors, ms: now() - started };
  },

  /** Closes the clients whose id starts with `prefix` (all when empty). */
  async disconnect({ prefix = '' }) {
    let n = 0;
    for (const [id, client] of clients)
      if (id.startsWith(prefix)) {
        client.close();
        clients.delete(id);
        n++;
      }
    await new Promise((r) => setTimeout(r, 200));
    return n;
  },

  /** Checks that the named clients are all still connected. */
  async connectedCount({ prefix = '' }) {
    let up = 0;
    let down = 0;
    for (const [id, client] of clients) {
      if (!id.startsWith(prefix)) continue;
      if (client.connected) up++;
      else down++;
    }
    return { up, down };
  },

  /**
   * Sends `requests` (each { url, method, headers, body, key, expect: [clientId], type, check, label })
   * open loop at `rate` per second, or one after another (`sequential`, each waiting for all its
   * events or `eventTimeoutMs`, then `gapMs`). Latency is measured from each request's scheduled time.
   * Waits `drainMs` for late events, then counts what is lost.
   */
  async run({ requests, rate, sequential = false, gapMs = 0, drainMs = 1000, eventTimeoutMs = 5000 }) {
    pending = new Map();
    tally = newTally();
    for (const client of clients.values()) client.lastIds = new Set();
    const httpHist = new Histograms();
    const lag = new Histograms();
    const status = {};
    const badSamples = [];
    let httpErrors = 0;
    const failedKeys = [];
    const started = now();
    const inFlight = [];

    const fire = (spec, t0) => {
      if (spec.key !== undefined && spec.key !== null) {
        const entry = {
          t0,
          waiting: new Set(spec.expect ?? []),
          got: new Set(),
          check: spec.check,
          type: spec.type,
        };
        entry.done = new Promise((resolve) => (entry.resolve = resolve));
        if (entry.waiting.size === 0) entry.resolve();
        pending.set(spec.key, entry);
      }
      lag.record('scheduler', now() - t0);
      const p = request(spec, t0, false).then((res) => {
        httpHist.record(spec.label ?? 'request', res.ms);
        status[res.status] = (status[res.status] ?? 0) + 1;
        if (res.status !== (spec.status ?? 200)) {
          httpErrors++;
          if (spec.key !== undefined && spec.key !== null) {
            // A refused write has no event to wait for; the error is counted, not a lost event.
            failedKeys.push(spec.key);
            pending.delete(spec.key);
          }
          if (badSamples.length < 5)
            badSamples.push(`${spec.method ?? 'GET'} ${spec.url}: ${res.status} ${res.body.slice(0, 200)}`);
        }
      });
      inFlight.push(p);
      return p;
    };

    if (sequential) {
      for (const spec of requests) {
        const t0 = now();
        await fire(spec, t0);
        const entry = pending.get(spec.key);
        if (entry) await Promise.race([entry.done, new Promise((r) => setTimeout(r, eventTimeoutMs))]);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    } else {
      const interval = 1000 / rate;
      let i = 0;
      while (i < requests.length) {
        const t = now();
        // Fire every request that is due (several at once when the timer was late: open loop).
        while (i < requests.length && started + i * interval <= t) {
          fire(requests[i], started + i * interval);
          i++;
        }
        if (i < requests.length) {
          const wait = started + i * interval - now();
          await new Promise((r) => (wait > 1 ? setTimeout(r, wait - 0.5) : setImmediate(r)));
        }
      }
    }
    await Promise.all(inFlight);
    const sendingMs = now() - started;
    // Late events: wait until everything arrived or the drain time is over.
    const drainUntil = now() + drainMs;
    while (now() < drainUntil && [...pending.values()].some((e) => e.waiting.size > 0))
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100)); // duplicates arriving right behind
    for (const entry of pending.values()) tally.lost += entry.waiting.size;
    let malformed = 0;
    const malformedSamples = [];
    for (const client of clients.values())
      if (client.malformed?.length) {
        malformed += client.malformed.length;
        malformedSamples.push(...client.malformed.slice(0, 2));
        client.malformed = [];
      }
    const result = {
      requests: requests.length,
      sendingMs,
      achievedRate: (requests.length * 1000) / sendingMs,
      http: httpHist.summary(),
      httpAll: httpHist.summaryAll(),
      schedulerLag: lag.summary().scheduler,
      status,
      httpErrors,
      failedKeys,
      badSamples,
      events: tally.events.summary(),
      eventsAll: tally.events.summaryAll(),
      received: tally.received,
      lost: tally.lost,
      duplicated: tally.duplicated,
      unexpected: tally.unexpected,
      unkeyed: tally.unkeyed,
      derived: tally.derived,
      wrongData: tally.wrongData,
      malformed,
      samples: [...tally.samples, ...malformedSamples.slice(0, 3)],
    };
    tally = null;
    pending = new Map();
    return result;
  },

  // Browser-like tabs that reconnect and catch up (S6).
  tabsOpen: (args) => tabs.open(args),
  tabsWait: (args) => tabs.waitCaughtUp(args),
  tabsClose: () => tabs.close(),
  now: () => now(),

  /** tus uploads of generated files, all at once (S10): [{ id, ms, status, error }]. */
  uploads: (args) => tusUploads(args),
  /** One generated file in a plain PUT (S10's bare node:http reference). */
  putFile: (args) => putFile(args),

  /** The data of the last `type` event each named real client received (null where none). */
  async lastData({ ids, type }) {
    return ids.map((id) => clients.get(id)?.last?.[type]?.data ?? null);
  },

  /** One request, with its body (setup steps, checks). */
  async fetch(spec) {
    return request(spec, now(), true);
  },
};

process.on('message', async (message) => {
  if (!message || typeof message.cmd !== 'string') return;
  try {
    const handler = commands[message.cmd];
    if (!handler) throw new Error(`unknown command ${message.cmd}`);
    process.send({ id: message.id, value: await handler(message.args ?? {}) });
  } catch (error) {
    process.send({ id: message.id, error: error.stack ?? String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
