/**
 * Change notices over Redis pub/sub, when replicas share a Redis (`GENGATE_REDIS_URL`): one
 * subscriber connection, one publisher. Commands never wait in ioredis's offline queue; a notice
 * sent while the publisher is not connected (Redis restarting, the publisher waiting for its next
 * retry) is kept instead (`PendingNotices`: coalesced by topic, bounded) and goes out the moment
 * the publisher is connected again — else another replica already listening again would hear of
 * the change only at its safety poll. A kept notice also hurries the publisher's reconnect: this
 * class reconnects the publisher itself (one timer, backing off like the subscriber), so a notice,
 * or the subscriber finding Redis back, can make it try at once. The subscriber reconnects by
 * itself; it counts as listening, and reads what changed meanwhile, only once its subscription
 * is confirmed after each (re)connect, so a notice sent before that is covered by the read.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type ChangeNotifier, NOTICE_CHANNEL, reconnectDelayMs } from './change-notifier.js';
import type { InvalidationTopic } from './invalidation-bus.js';
import { PendingNotices } from './pending-notices.js';

/** Notices hurry a reconnect at most this often (a burst of changes while Redis is down is not a burst of connects). */
const HURRY_EVERY_MS = 500;

export class RedisChangeNotifier implements ChangeNotifier {
  readonly name = 'redis';
  private readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly pending = new PendingNotices();
  private subscribed = false;
  private onNotice?: () => void;
  private closed = false;
  private publisherFailures = 0;
  private publisherRetry?: NodeJS.Timeout;
  private lastHurriedAt = 0;

  constructor(url: string, options: { keyPrefix?: string; logger?: Logger } = {}) {
    this.channel = `${options.keyPrefix ?? 'gengate:'}${NOTICE_CHANNEL}`;
    const settings = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 5_000,
      retryStrategy: (times: number) => reconnectDelayMs(times - 1),
    };
    // The publisher does not reconnect by itself: `reconnectPublisher` does, so a waiting notice can hurry it.
    this.publisher = new Redis(url, { ...settings, retryStrategy: () => null });
    // A subscriber must queue its SUBSCRIBE until connected, and re-subscribes by itself after a reconnect.
    this.subscriber = new Redis(url, { ...settings, enableOfflineQueue: true });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error: unknown) => options.logger?.debug({ err: error }, 'redis change notifier'));
    }
    this.publisher.on('ready', () => {
      this.publisherFailures = 0;
      void this.flush();
    });
    // Closed without reconnecting (its retry strategy says so): try again after a backoff.
    this.publisher.on('end', () => this.schedulePublisherRetry());
    this.subscriber.on('ready', () => void this.confirmSubscription());
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
  }

  get listening(): boolean {
    return this.subscribed && this.subscriber.status === 'ready';
  }

  async send(topic: InvalidationTopic): Promise<void> {
    if (this.publisher.status !== 'ready') {
      this.keep(topic);
      return;
    }
    // Lost on the way (the connection just dropped): sent again once the publisher is ready.
    await this.publisher.publish(this.channel, topic).catch(() => this.keep(topic));
  }

  async start(onNotice: () => void): Promise<void> {
    this.onNotice = onNotice;
    this.subscriber.on('message', (channel: string) => {
      if (channel === this.channel) onNotice();
    });
    await Promise.allSettled([this.publisher.connect(), this.subscriber.connect()]);
    await this.subscriber.subscribe(this.channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.publisherRetry);
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  /**
   * After each (re)connect: once Redis confirmed the subscription (an answer on the same
   * connection comes after the re-subscription ioredis sends first), this process listens, and
   * reads whatever changed while it did not. Redis being back also hurries the publisher.
   */
  private async confirmSubscription(): Promise<void> {
    this.hurryPublisher();
    if (!this.onNotice) return;
    try {
      await this.subscriber.subscribe(this.channel);
    } catch {
      return;
    }
    this.subscribed = true;
    this.onNotice();
  }

  /** Keeps a notice for the publisher's next connection, and has it try now — at most every half second, however many notices come. */
  private keep(topic: InvalidationTopic): void {
    this.pending.add(topic);
    const now = Date.now();
    if (now - this.lastHurriedAt < HURRY_EVERY_MS) return;
    this.lastHurriedAt = now;
    this.hurryPublisher();
  }

  /** A publisher waiting for its next retry tries now (a notice waits, or Redis answered the subscriber). */
  private hurryPublisher(): void {
    if (this.publisher.status === 'end') this.reconnectPublisher();
  }

  private schedulePublisherRetry(): void {
    if (this.closed) return;
    clearTimeout(this.publisherRetry);
    this.publisherRetry = setTimeout(() => this.reconnectPublisher(), reconnectDelayMs(this.publisherFailures++));
    this.publisherRetry.unref();
  }

  /** One attempt; a failed one ends the connection again (`end`), which schedules the next. Never two attempts at once. */
  private reconnectPublisher(): void {
    if (this.closed || this.publisher.status !== 'end') return;
    clearTimeout(this.publisherRetry);
    this.publisher.connect().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    for (const topic of this.pending.take()) await this.send(topic);
  }
}
