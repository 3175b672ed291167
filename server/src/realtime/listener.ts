import type { AppSocket } from './socket-server.js';

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
