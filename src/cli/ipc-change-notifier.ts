/**
 * Change notices between the workers of one `gengate start --workers N` on a SQLite file without
 * Redis: a worker's notice goes to the primary, which relays it to every worker (the sender
 * included), each then reading `store_revisions`. It never reports itself listening, so the bus
 * keeps its fast poll: writers outside the cluster (the CLI, another machine) are heard by that.
 */
import type { ChangeNotifier } from '../store/change-notifier.js';
import type { InvalidationTopic } from '../store/invalidation-bus.js';
import type { IpcEndpoint } from './cluster-messages.js';

export class IpcChangeNotifier implements ChangeNotifier {
  readonly name = 'cluster';
  readonly listening = false;

  constructor(private readonly endpoint: IpcEndpoint) {}

  async send(topic: InvalidationTopic): Promise<void> {
    this.endpoint.send({ gengate: 'notice', topic });
  }

  async start(onNotice: () => void): Promise<void> {
    this.endpoint.onMessage((message) => {
      if (message.gengate === 'notice') onNotice();
    });
  }

  async close(): Promise<void> {}
}
