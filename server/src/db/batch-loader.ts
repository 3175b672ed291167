/**
 * Many lookups of one kind, made in the same turn of the event loop, as one query: under a storm of
 * reconnecting tabs (bench S6: 5,000 at once after a restart) each handshake asked the database for
 * its session and its courses on its own, queued for the pool's ten connections, and some waited
 * past the pool's timeout and were refused. `load` gets the distinct keys (at most `maxBatch` at a
 * time) and answers what it found; a key it did not find resolves to undefined. A failed load fails
 * every lookup of its batch.
 */
export function batchLoader<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
  maxBatch = 500,
): (key: K) => Promise<V | undefined> {
  let waiting: { key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] = [];

  async function flush(batch: typeof waiting) {
    const keys = [...new Set(batch.map((w) => w.key))];
    for (let i = 0; i < keys.length; i += maxBatch) {
      const chunk = new Set(keys.slice(i, i + maxBatch));
      const asking = batch.filter((w) => chunk.has(w.key));
      try {
        const found = await load([...chunk]);
        for (const w of asking) w.resolve(found.get(w.key));
      } catch (error) {
        for (const w of asking) w.reject(error);
      }
    }
  }

  return (key) =>
    new Promise((resolve, reject) => {
      if (waiting.length === 0)
        setImmediate(() => {
          const batch = waiting;
          waiting = [];
          void flush(batch);
        });
      waiting.push({ key, resolve, reject });
    });
}
