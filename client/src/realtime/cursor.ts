/**
 * Where a tab is in the stream of live events: the last id applied, and the recent ids already
 * seen, so an event that arrives both live and in a replay is applied once.
 */
export class EventCursor {
  private seen = new Set<number>();
  private order: number[] = [];
  lastId: number | null = null;

  constructor(private readonly remember = 2000) {}

  /** True when the event is new (and records it); false for a duplicate. */
  accept(id: number): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    this.order.push(id);
    if (this.order.length > this.remember) this.seen.delete(this.order.shift()!);
    if (this.lastId === null || id > this.lastId) this.lastId = id;
    return true;
  }

  /** Start (again) from a known position, e.g. the head the server reported, forgetting nothing seen. */
  moveTo(id: number): void {
    if (this.lastId === null || id > this.lastId) this.lastId = id;
  }

  reset(): void {
    this.seen.clear();
    this.order = [];
    this.lastId = null;
  }
}
