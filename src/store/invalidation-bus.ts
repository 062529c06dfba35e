/**
 * Tells the parts of a running gateway that something they hold in memory changed (channels,
 * the catalog, keys, limit and budget rules). In one process the bus is local; a multi-replica deployment plugs in a
 * bus over Redis pub/sub or PostgreSQL LISTEN/NOTIFY with the same two methods.
 */
export type InvalidationTopic = 'channels' | 'catalog' | 'keys' | 'limits';

export interface InvalidationBus {
  publish(topic: InvalidationTopic): void;
  /** Returns a function that unsubscribes. */
  subscribe(topic: InvalidationTopic, listener: () => void): () => void;
}

export class LocalInvalidationBus implements InvalidationBus {
  private readonly listeners = new Map<InvalidationTopic, Set<() => void>>();

  publish(topic: InvalidationTopic): void {
    for (const listener of this.listeners.get(topic) ?? []) listener();
  }

  subscribe(topic: InvalidationTopic, listener: () => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }
}
