/**
 * Change notices over Redis pub/sub, when replicas share a Redis (`GENGATE_REDIS_URL`): one
 * subscriber connection, one publisher. ioredis reconnects by itself; commands never wait in
 * an offline queue (a notice that cannot go out now is dropped: the poll catches it).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type ChangeNotifier, NOTICE_CHANNEL, reconnectDelayMs } from './change-notifier.js';
import type { InvalidationTopic } from './invalidation-bus.js';

export class RedisChangeNotifier implements ChangeNotifier {
  readonly name = 'redis';
  private readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private subscribed = false;

  constructor(url: string, options: { keyPrefix?: string; logger?: Logger } = {}) {
    this.channel = `${options.keyPrefix ?? 'gengate:'}${NOTICE_CHANNEL}`;
    const settings = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 5_000,
      retryStrategy: (times: number) => reconnectDelayMs(times - 1),
    };
    this.publisher = new Redis(url, settings);
    // A subscriber must queue its SUBSCRIBE until connected, and re-subscribes by itself after a reconnect.
    this.subscriber = new Redis(url, { ...settings, enableOfflineQueue: true });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error: unknown) => options.logger?.debug({ err: error }, 'redis change notifier'));
    }
    this.subscriber.on('ready', () => {
      this.subscribed = true;
    });
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
  }

  get listening(): boolean {
    return this.subscribed && this.subscriber.status === 'ready';
  }

  async send(topic: InvalidationTopic): Promise<void> {
    if (this.publisher.status === 'wait') await this.publisher.connect().catch(() => undefined);
    await this.publisher.publish(this.channel, topic).catch(() => undefined);
  }

  async start(onNotice: () => void): Promise<void> {
    this.subscriber.on('message', (channel: string) => {
      if (channel === this.channel) onNotice();
    });
    // After a reconnect, whatever changed meanwhile is read at once.
    this.subscriber.on('ready', () => onNotice());
    await Promise.allSettled([this.publisher.connect(), this.subscriber.connect()]);
    await this.subscriber.subscribe(this.channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
