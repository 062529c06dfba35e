/**
 * The channels in force, ready for the hot path: model patterns compiled, providers bound,
 * and the candidate list per (model, operation) memoised. The sandbox is a fallback: it serves
 * a model only when no configured upstream channel does, so a failing real upstream is never
 * silently replaced by simulated answers.
 */
import type { ChannelDefinition, GatewayConfig } from '../config/types.js';
import { channelDefaults } from '../config/defaults.js';
import type { Operation } from '../core/operation.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { ChannelConfig, Provider } from '../providers/types.js';
import type { Catalog } from './catalog.js';
import { compileModelPattern } from './model-pattern.js';
import type { Selectable } from './order-attempts.js';

export interface RuntimeChannel extends Selectable {
  config: ChannelConfig;
  provider: Provider;
  /** True for the implicit sandbox channel, used only when nothing else serves a model. */
  fallbackOnly: boolean;
  /** The model ids the channel names without wildcards. */
  literalModels: string[];
  matches(model: string): boolean;
  upstreamModel(model: string): string;
}

function toRuntime(definition: ChannelDefinition, provider: Provider, fallbackOnly: boolean): RuntimeChannel {
  const matchers = definition.models.map(compileModelPattern);
  return {
    name: definition.name,
    priority: definition.priority,
    weight: definition.weight,
    enabled: definition.enabled,
    fallbackOnly,
    literalModels: definition.models.filter((pattern) => !pattern.includes('*')),
    provider,
    config: {
      name: definition.name,
      provider: definition.provider,
      baseUrl: definition.baseUrl,
      apiKey: definition.apiKey,
      headers: definition.headers,
      timeoutMs: definition.timeoutMs,
      options: definition.options,
    },
    matches: (model) => matchers.some((match) => match(model)),
    upstreamModel(model) {
      const mapped = definition.modelMap[model];
      if (mapped) return mapped;
      for (const rule of definition.modelRewrite) {
        if (model.startsWith(rule.from)) return rule.to + model.slice(rule.from.length);
      }
      return model;
    },
  };
}

export class ChannelRegistry {
  readonly channels: RuntimeChannel[];
  private readonly memo = new Map<string, RuntimeChannel[]>();

  constructor(config: GatewayConfig, providers: ProviderRegistry, catalog: Catalog) {
    this.channels = config.channels.map((definition) => toRuntime(definition, providers.get(definition.provider), false));
    const hasExplicitSandbox = config.channels.some((c) => c.provider === 'sandbox');
    if (config.sandbox.enabled && !hasExplicitSandbox) {
      const sandbox: ChannelDefinition = {
        ...channelDefaults(),
        name: 'sandbox',
        provider: 'sandbox',
        models: catalog.all().map((entry) => entry.id),
        priority: Number.MIN_SAFE_INTEGER,
      };
      this.channels.push(toRuntime(sandbox, providers.get('sandbox'), true));
    }
  }

  /** Enabled or not, every channel that could serve the model for the operation. */
  candidates(model: string, operation: Operation): RuntimeChannel[] {
    const memoKey = `${operation}\u0000${model}`;
    let found = this.memo.get(memoKey);
    if (!found) {
      const serving = this.channels.filter((c) => c.enabled && c.provider.operations.has(operation) && c.matches(model));
      const real = serving.filter((c) => !c.fallbackOnly);
      found = real.length > 0 ? real : serving;
      if (this.memo.size > 10_000) this.memo.clear();
      this.memo.set(memoKey, found);
    }
    return found;
  }

  /** Whether any channel serves the model for the operation. */
  serves(model: string, operation: Operation): boolean {
    return this.candidates(model, operation).length > 0;
  }
}
