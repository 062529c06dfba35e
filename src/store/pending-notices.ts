/**
 * Change notices a process could not send yet (its Redis publisher not connected): kept until
 * the publisher is ready again, then sent. Coalesced by topic — a notice only says "look at this
 * topic now", so two of the same topic are one — and so bounded by the number of topics (with a
 * cap besides, should topics ever come from elsewhere).
 */
import type { InvalidationTopic } from './invalidation-bus.js';

/** More distinct topics than there are: a cap that never bites today. */
const MAX_PENDING = 32;

export class PendingNotices {
  private readonly topics = new Set<InvalidationTopic>();

  /** Keeps a notice to send later; false when the cap dropped it (the poll still catches the change). */
  add(topic: InvalidationTopic): boolean {
    if (!this.topics.has(topic) && this.topics.size >= MAX_PENDING) return false;
    this.topics.add(topic);
    return true;
  }

  get size(): number {
    return this.topics.size;
  }

  /** Every notice kept, oldest first; none kept afterwards. */
  take(): InvalidationTopic[] {
    const taken = [...this.topics];
    this.topics.clear();
    return taken;
  }
}
