/**
 * The channels in force, ready for the hot path: model patterns compiled, providers bound,
 * and the candidate list per (model, operation) memoised. The registry holds one immutable
 * snapshot and swaps it whole when channels change (`replace`), so a request that took a
 * snapshot never sees a half-updated set. The sandbox is a fallback: it serves a model only
 * when no configured upstream channel does, so a failing real upstream is never silently
 * replaced by simulated answers.
 */
import { channelDefaults } from '../config/defaults.js';
import type { ChannelDefinition } from '../config/types.js';
import type { Operation } from '../core/operation.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Provider, ProviderName } from '../providers/types.js';
import type { Catalog } from './catalog.js';
import { type RuntimeChannel, toRuntimeChannel } from './runtime-channel.js';

export type { RuntimeChannel } from './runtime-channel.js';

const MEMO_LIMIT = 10_000;

/** One consistent view of the channels. */
export class ChannelSnapshot {
  private readonly memo = new Map<string, RuntimeChannel[]>();

  constructor(
    readonly channels: readonly RuntimeChannel[],
    /** Increases with every replacement, for logs and tests. */
    readonly version: number,
  ) {}

  /** Enabled channels that could serve the model for the operation (the sandbox only when nothing else does). */
  candidates(model: string, operation: Operation): RuntimeChannel[] {
    const memoKey = `${operation}\u0000${model}`;
    let found = this.memo.get(memoKey);
    if (!found) {
      const serving = this.channels.filter((c) => c.enabled && c.provider.operations.has(operation) && c.matches(model));
      const real = serving.filter((c) => !c.fallbackOnly);
      found = real.length > 0 ? real : serving;
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(memoKey, found);
    }
    return found;
  }

  /** The channel of that name (enabled or not), e.g. the one a task runs on. */
  channel(name: string | undefined): RuntimeChannel | undefined {
    return name === undefined ? undefined : this.channels.find((c) => c.name === name);
  }

  /** Whether any channel serves the model for the operation. */
  serves(model: string, operation: Operation): boolean {
    return this.candidates(model, operation).length > 0;
  }
}

interface RegistryOptions {
  providers: ProviderRegistry;
  catalog: Catalog;
  /** Whether the implicit sandbox channel serves catalog models nothing else serves. */
  sandboxFallback: boolean;
}

export class ChannelRegistry {
  private snapshot: ChannelSnapshot;
  private readonly listeners = new Set<(snapshot: ChannelSnapshot) => void>();

  constructor(
    private readonly options: RegistryOptions,
    definitions: readonly ChannelDefinition[] = [],
  ) {
    this.snapshot = this.build(definitions, 1);
  }

  /** The snapshot in force; take it once per call. */
  current(): ChannelSnapshot {
    return this.snapshot;
  }

  get channels(): readonly RuntimeChannel[] {
    return this.snapshot.channels;
  }

  candidates(model: string, operation: Operation): RuntimeChannel[] {
    return this.snapshot.candidates(model, operation);
  }

  serves(model: string, operation: Operation): boolean {
    return this.snapshot.serves(model, operation);
  }

  /**
   * Puts a new set of channels in force. The new snapshot is built completely (providers
   * resolved, patterns compiled) before it replaces the old one, so a bad definition throws
   * here and the old channels stay.
   */
  replace(definitions: readonly ChannelDefinition[]): ChannelSnapshot {
    const names = new Set<string>();
    for (const definition of definitions) {
      if (names.has(definition.name)) throw new Error(`two channels are named "${definition.name}"`);
      names.add(definition.name);
    }
    const next = this.build(definitions, this.snapshot.version + 1);
    this.snapshot = next;
    for (const listener of this.listeners) listener(next);
    return next;
  }

  onChange(listener: (snapshot: ChannelSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private build(definitions: readonly ChannelDefinition[], version: number): ChannelSnapshot {
    const provider = (name: string): Provider => this.options.providers.get(name as ProviderName);
    const channels = definitions.map((definition) => toRuntimeChannel(definition, provider(definition.provider), false));
    if (this.options.sandboxFallback && !definitions.some((c) => c.provider === 'sandbox')) {
      const sandbox: ChannelDefinition = {
        ...channelDefaults(),
        name: 'sandbox',
        provider: 'sandbox',
        models: this.options.catalog.all().map((entry) => entry.id),
        priority: Number.MIN_SAFE_INTEGER,
      };
      channels.push(toRuntimeChannel(sandbox, provider('sandbox'), true));
    }
    return new ChannelSnapshot(channels, version);
  }
}
