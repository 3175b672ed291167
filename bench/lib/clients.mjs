// Socket clients of the load generator.
// - LightClient speaks engine.io v4 / socket.io v5 over a raw `ws` socket (or plain ws for the floor
//   baseline), answers pings, and reads only what the bench needs from each event (its type, id and
//   the bench key) without parsing the whole JSON: thousands of them must not cost more than the server.
// - RealClient is socket.io-client itself, for a handful of sockets whose events are checked in full.
import WebSocket from 'ws';
import { io } from 'socket.io-client';

/** The shared host clock (CLOCK_MONOTONIC), in ms: the same in every process on this machine. */
export const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Marks a write so its event can be matched: `~b~<key>~` goes into a title, content or feedback. */
export const keyMark = (key) => `~b~${key}~`;

/**
 * type, id and key of a `42["type",{"id":N,...}]` frame, cheaply. `keyAfter`: the key is the first
 * mark after this text, and there is none without it (a lesson's tally lists other answers, each
 * with its own mark, before the new one's `"answer":{…}`; its re-read after a burst has none).
 */
export function peek(text, keyAfter) {
  const q = text.indexOf('"', 4);
  const type = text.slice(4, q);
  const at = text.indexOf('"id":', q);
  const id = at < 0 ? -1 : parseInt(text.slice(at + 5, at + 25), 10);
  const from = keyAfter ? text.indexOf(keyAfter, q) : q;
  const k = from < 0 ? -1 : text.indexOf('~b~', from);
  const key = k < 0 ? -1 : parseInt(text.slice(k + 3, k + 20), 10);
  return { type, id, key };
}

export class LightClient {
  /**
   * @param {object} o
   * @param {string} o.id        the bench's name for this client
   * @param {string} o.url       http://host:port of the server
   * @param {'eio'|'ws'} o.kind  socket.io protocol, or raw ws (the floor baseline)
   * @param {object|(() => object)} o.auth  sent in the socket.io CONNECT packet ({ token, after? } for
   *                            the app); a function is asked on each open, like socket.io-client's
   * @param {(client, missed, t) => void} [o.onCatchUp] the app's `events:missed` ({ resync, lastId,
   *                            events }), parsed in full: it comes once per connect, before any live event
   * @param {string[]} [o.rooms] raw ws only: rooms to join (query string)
   * @param {string} [o.keyAfter] an event's key is the first mark after this text (see `peek`)
   * @param {(client, type, id, key, t, text) => void} o.onEvent
   * @param {(client, reason) => void} [o.onClose]
   */
  constructor(o) {
    Object.assign(this, o);
    this.ws = null;
    this.connected = false;
  }

  open(timeoutMs = 15_000) {
    const base = this.url.replace(/^http/, 'ws');
    const target =
      this.kind === 'ws'
        ? `${base}/?rooms=${encodeURIComponent((this.rooms ?? []).join(','))}`
        : `${base}/socket.io/?EIO=4&transport=websocket`;
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          this.ws?.terminate();
          reject(error);
        } else {
          this.connected = true;
          resolve(this);
        }
      };
      const timer = setTimeout(() => done(new Error('connect timeout')), timeoutMs);
      const ws = new WebSocket(target, { perMessageDeflate: false });
      this.ws = ws;
      ws.on('error', (error) => done(error));
      ws.on('close', () => {
        const was = this.connected;
        this.connected = false;
        done(new Error('closed before connecting'));
        if (was) this.onClose?.(this, 'closed');
      });
      if (this.kind === 'ws') {
        ws.on('open', () => done());
        ws.on('message', (data) => {
          const t = now();
          const text = data.toString();
          const { type, id, key } = peek(text, this.keyAfter);
          this.onEvent(this, type, id, key, t, text);
        });
        return;
      }
      ws.on('message', (data) => {
        const t = now();
        const text = data.toString();
        switch (text.charCodeAt(0)) {
          case 48: // '0' engine.io open: connect the default namespace with auth
            ws.send(`40${JSON.stringify(typeof this.auth === 'function' ? this.auth() : this.auth)}`);
            return;
          case 50: // '2' ping
            ws.send('3');
            return;
          case 52: {
            // '4' engine.io message carrying a socket.io packet
            const kind = text.charCodeAt(1);
            if (kind === 50) {
              if (text.startsWith('42["events:missed"')) {
                this.onCatchUp?.(this, JSON.parse(text.slice(2))[1], t);
                return;
              }
              const { type, id, key } = peek(text, this.keyAfter);
              this.onEvent(this, type, id, key, t, text);
            } else if (kind === 48) {
              // '40{"sid":…}': connected. onConnect runs now, before any event in the same read.
              this.onConnect?.(this);
              done();
            } else if (kind === 52)
              done(new Error(`refused: ${text.slice(2)}`)); // '44{"message":…}'
            else if (kind === 49) ws.close(); // '41' server disconnect
            return;
          }
          case 49: // '1' engine.io close
            ws.close();
        }
      });
    });
  }

  close() {
    this.onClose = undefined;
    this.ws?.terminate();
    this.connected = false;
  }
}

/** socket.io-client, checked in full: every event must be a well-formed LiveEvent. */
export class RealClient {
  constructor(o) {
    Object.assign(this, o);
    this.socket = null;
    this.connected = false;
    this.malformed = [];
    /** The last payload of each event type (a teacher's last tally, S11). */
    this.last = {};
  }

  open(timeoutMs = 15_000) {
    return new Promise((resolve, reject) => {
      const socket = io(this.url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: this.auth,
        reconnection: false,
        forceNew: true,
        timeout: timeoutMs,
      });
      this.socket = socket;
      socket.once('connect', () => {
        this.connected = true;
        resolve(this);
      });
      socket.once('connect_error', (error) => reject(new Error(`refused: ${error.message}`)));
      socket.on('disconnect', () => {
        const was = this.connected;
        this.connected = false;
        if (was) this.onClose?.(this, 'closed');
      });
      socket.onAny((type, payload) => {
        const t = now();
        if (type === 'events:missed') {
          this.onCatchUp?.(this, payload, t);
          return;
        }
        const problem = checkLiveEvent(type, payload);
        if (problem) this.malformed.push(`${type}: ${problem}`);
        this.last[type] = payload;
        const text = JSON.stringify(payload ?? null);
        const from = this.keyAfter ? text.indexOf(this.keyAfter) : 0;
        const k = from < 0 ? -1 : text.indexOf('~b~', from);
        const key = k < 0 ? -1 : parseInt(text.slice(k + 3, k + 20), 10);
        this.onEvent(this, type, typeof payload?.id === 'number' ? payload.id : -1, key, t, text, payload);
      });
    });
  }

  close() {
    this.onClose = undefined;
    this.socket?.disconnect();
    this.connected = false;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Why an event is not a well-formed LiveEvent { id, type, at, data }, or null when it is. */
/** Events whose data names its subject by another field than `id` (null: by none, e.g. a read receipt). */
const IDENTITY = {
  'assignment:panel': 'assignmentId',
  'gradebook:cell': 'assignmentId',
  'notifications:read': null,
  'lesson:tally': 'questionId',
  'lesson:answer': 'questionId',
};

export function checkLiveEvent(type, payload) {
  if (!payload || typeof payload !== 'object') return 'payload is not an object';
  if (!Number.isInteger(payload.id) || payload.id <= 0) return 'id is not a positive integer';
  if (payload.type !== type) return `type ${payload.type} differs from the event name`;
  if (typeof payload.at !== 'string' || Number.isNaN(Date.parse(payload.at))) return 'at is not a date';
  if (!payload.data || typeof payload.data !== 'object') return 'data is missing';
  // Most events carry the id of the thing they are about; counts carry their assignment's.
  const field = type in IDENTITY ? IDENTITY[type] : 'id';
  if (field && (typeof payload.data[field] !== 'string' || !UUID.test(payload.data[field])))
    return `data.${field} is not a uuid`;
  const keys = Object.keys(payload).sort().join(',');
  if (keys !== 'at,data,id,type') return `unexpected fields: ${keys}`;
  return null;
}
