/** At most `max` events per key in any `windowMs`; keys with no recent event are dropped. */
export function slidingWindow({ max, windowMs }: { max: number; windowMs: number }) {
  const times = new Map<string, number[]>();
  let lastSweep = 0;
  return {
    allow(key: string, now: number): boolean {
      if (now - lastSweep > windowMs) {
        lastSweep = now;
        for (const [k, list] of times) if (now - list[list.length - 1]! >= windowMs) times.delete(k);
      }
      const recent = (times.get(key) ?? []).filter((t) => now - t < windowMs);
      if (recent.length >= max) {
        times.set(key, recent);
        return false;
      }
      recent.push(now);
      times.set(key, recent);
      return true;
    },
  };
}
