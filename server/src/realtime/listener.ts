import type { Ack } from '@classwave/shared';
import type { AppSocket } from './types.js';

/**
 * A socket event's listener made once for every socket: node's emitter calls a listener with the
 * socket as `this`, which this hands on as the first argument. Six listeners made anew per socket
 * (closures and their scopes) were half of what the app adds to a socket's memory
 * (bench/heap-diff.mjs).
 */
export function socketListener<A extends unknown[]>(
  handle: (socket: AppSocket, ...args: A) => unknown,
): (this: AppSocket, ...args: A) => void {
  return function (this: AppSocket, ...args: A) {
    void handle(this, ...args);
  };
}

/** A client event's refusal, as its acknowledgement carries it. */
export const refuse = (code: string, message: string): Ack => ({ ok: false, code, message });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a client event's id has the shape of a database id (checked before any query). */
export const isUuid = (value: string): boolean => UUID.test(value);
