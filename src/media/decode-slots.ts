/**
 * A counting semaphore for image decodes: at most `size` run at once, the rest wait in order.
 * A waiter whose signal aborts leaves the queue at once, so a cancelled request holds nothing.
 */
export class DecodeSlots {
  private running = 0;
  private readonly waiting: Array<{ start: () => void; onAbort: () => void }> = [];

  constructor(private size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`decode slots must be a positive integer, got ${size}`);
  }

  resize(size: number): void {
    if (!Number.isInteger(size) || size < 1) throw new Error(`decode slots must be a positive integer, got ${size}`);
    this.size = size;
    this.next();
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `work` in a slot, after waiting for one if all are taken. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.running--;
      this.next();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          resolve();
        },
        onAbort: () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    while (this.running < this.size && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!.start();
    }
  }
}
