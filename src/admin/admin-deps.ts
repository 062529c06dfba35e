/** What the admin API's routes work with; assembled by src/app.ts. */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { KeyDirectory } from '../auth/key-directory.js';
import type { GatewayConfig } from '../config/types.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ChannelProber } from '../gateway/channel-prober.js';
import type { LiveChannels } from '../gateway/live-channels.js';
import type { CounterStore } from '../limits/contract.js';
import type { MediaStore } from '../media/media-store.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Catalog } from '../routing/catalog.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import type { AccountsRepository } from '../store/accounts-repository.js';
import type { ApiKeysRepository } from '../store/api-keys-repository.js';
import type { ChannelsRepository } from '../store/channels-repository.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';
import type { OpenedStore } from '../store/open-store.js';
import type { SessionsRepository } from '../store/sessions-repository.js';
import type { Database } from '../store/schema.js';
import type { UsageRepository } from '../store/usage-repository.js';
import type { TaskEngine } from '../tasks/task-engine.js';
import type { AdminAuth } from './admin-auth.js';
import type { AuditTrail } from './audit-trail.js';

export interface AdminDeps {
  config: GatewayConfig;
  store: OpenedStore;
  db: Kysely<Database>;
  logger: Logger;
  auth: AdminAuth;
  audit: AuditTrail;
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  keys: ApiKeysRepository;
  keyDirectory: KeyDirectory;
  usage: UsageRepository;
  channels: ChannelsRepository;
  liveChannels: LiveChannels;
  registry: ChannelRegistry;
  /** The channels' health: probes, circuit states, recent error rates. */
  prober: ChannelProber;
  providers: ProviderRegistry;
  catalog: Catalog;
  invalidation: InvalidationBus;
  tasks: TaskEngine;
  services: Gateway;
  media: MediaStore;
  /** The limit and budget counters, for `GET /limits/standing`; absent, standing shows the rules without numbers. */
  counters?: CounterStore;
}
