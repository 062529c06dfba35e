/** A channel definition made ready for the hot path: provider bound, model patterns compiled. */
import type { ChannelDefinition, ProbeSettings } from '../config/types.js';
import type { ChannelConfig, Provider } from '../providers/types.js';
import { compileModelPattern } from './model-pattern.js';
import type { Selectable } from './order-attempts.js';

export interface RuntimeChannel extends Selectable {
  config: ChannelConfig;
  provider: Provider;
  /** True for the implicit sandbox channel, used only when nothing else serves a model. */
  fallbackOnly: boolean;
  /** Its health probes' settings, when it has any. */
  probe?: ProbeSettings;
  /** Disabled by the gateway (refused credentials), not by an operator: a passing probe may re-enable it. */
  autoDisabled: boolean;
  /** The model ids the channel names without wildcards. */
  literalModels: string[];
  matches(model: string): boolean;
  upstreamModel(model: string): string;
}

export function toRuntimeChannel(definition: ChannelDefinition, provider: Provider, fallbackOnly: boolean): RuntimeChannel {
  const matchers = definition.models.map(compileModelPattern);
  return {
    name: definition.name,
    priority: definition.priority,
    weight: definition.weight,
    enabled: definition.enabled,
    fallbackOnly,
    probe: definition.probe,
    autoDisabled: !definition.enabled && definition.autoDisabledAt !== undefined,
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
