/**
 * The application layer: the one object surfaces call. It owns the call lifecycle and the
 * operation services built on it, and connects them to authentication, the channel registry,
 * the catalog and the media store.
 */
import type { GatewayConfig } from '../config/types.js';
import type { ImageInput } from '../core/image.js';
import type { ImageLimits } from '../core/image-bytes.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { ModelInfo } from '../core/model-info.js';
import type { Operation } from '../core/operation.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { MediaStore } from '../media/media-store.js';
import type { Catalog } from '../routing/catalog.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import { listModels } from '../routing/list-models.js';
import { CallLifecycle, type LifecycleHooks } from './call-lifecycle.js';
import { ChatService } from './chat-service.js';
import type {
  BackgroundResponseServices,
  ChatCall,
  ChatOutcome,
  EmbedCall,
  EmbedOutcome,
  GatewayServices,
  ImageCall,
  ImagesOutcome,
  ResponseStateServices,
  TaskServices,
} from './contract.js';
import { EmbedService } from './embed-service.js';
import { ImageService } from './image-service.js';

interface GatewayDeps {
  config: Pick<GatewayConfig, 'router' | 'limits' | 'media'>;
  authenticate(presented: string | undefined): Promise<AuthenticatedKey>;
  registry: ChannelRegistry;
  catalog: Catalog;
  recorder: UsageRecorder;
  media: MediaStore;
  hooks?: LifecycleHooks[];
  /** Builds the task engine on this gateway's call lifecycle (composed by app.ts). */
  tasks(lifecycle: CallLifecycle): TaskServices;
  /** The durable runs of background responses (composed by app.ts). */
  background: BackgroundResponseServices;
  /** The Responses API's stored conversations (composed by app.ts over the store). */
  responses: ResponseStateServices;
}

export class Gateway implements GatewayServices {
  readonly lifecycle: CallLifecycle;
  readonly imageLimits: ImageLimits;
  readonly tasks: TaskServices;
  readonly background: BackgroundResponseServices;
  readonly responses: ResponseStateServices;
  private readonly chats: ChatService;
  private readonly embeds: EmbedService;
  private readonly imageService: ImageService;

  constructor(private readonly deps: GatewayDeps) {
    const { config } = deps;
    this.imageLimits = { maxBytes: config.media.maxImageBytes, maxPixels: config.media.maxImagePixels };
    this.lifecycle = new CallLifecycle({
      registry: deps.registry,
      catalog: deps.catalog,
      recorder: deps.recorder,
      breaker: new CircuitBreaker(config.router.failureThreshold, config.router.cooldownMs),
      maxAttempts: config.router.maxAttempts,
      hooks: deps.hooks,
    });
    this.chats = new ChatService(this.lifecycle, { maxDocumentBytes: config.limits.maxDocumentBytes, publicModelNames: config.router.publicModelNames });
    this.embeds = new EmbedService(this.lifecycle);
    this.imageService = new ImageService(this.lifecycle, deps.media, config.media);
    this.tasks = deps.tasks(this.lifecycle);
    this.background = deps.background;
    this.responses = deps.responses;
  }

  authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    return this.deps.authenticate(presented);
  }

  checkAccess(key: AuthenticatedKey, model: string, operation: Operation): void {
    this.lifecycle.checkAccess({ key, model, operation });
  }

  chat(call: ChatCall): Promise<ChatOutcome> {
    return this.chats.chat(call);
  }

  listModels(key: AuthenticatedKey): ModelInfo[] {
    return listModels(this.deps.catalog, this.deps.registry.current(), key);
  }

  embed(call: EmbedCall): Promise<EmbedOutcome> {
    return this.embeds.embed(call);
  }

  images(call: ImageCall): Promise<ImagesOutcome> {
    return this.imageService.images(call);
  }

  fetchImage(url: string, param: string, signal: AbortSignal): Promise<ImageInput> {
    return this.imageService.fetchImage(url, param, signal);
  }
}
