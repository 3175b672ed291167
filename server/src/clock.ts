/** The time source; tests pass their own to move the clock forward (e.g. past a link's expiry). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
