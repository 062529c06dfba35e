import type { AuthenticatedKey } from '../core/key.js';
import type { ModelInfo } from '../core/model-info.js';
import type { Catalog } from './catalog.js';
import type { ChannelSnapshot } from './channel-registry.js';
import { keyMayUse } from './key-may-use.js';

/**
 * The models the key may use: catalog models some channel serves, then the literal model ids
 * (no wildcard) that configured channels name outside the catalog.
 */
export function listModels(catalog: Catalog, registry: ChannelSnapshot, key: AuthenticatedKey): ModelInfo[] {
  const listed: ModelInfo[] = catalog
    .all()
    .filter((entry) => keyMayUse(key, entry.id) && entry.operations.some((operation) => registry.serves(entry.id, operation)))
    .map((entry) => ({
      id: entry.id,
      operation: entry.operations[0],
      ownedBy: entry.ownedBy,
      created: catalog.listingDate(),
      displayName: entry.displayName,
      inputTokenLimit: entry.inputTokenLimit,
      outputTokenLimit: entry.outputTokenLimit,
    }));
  const seen = new Set(listed.map((model) => model.id));
  for (const channel of registry.channels) {
    if (!channel.enabled || channel.fallbackOnly) continue;
    for (const id of channel.literalModels) {
      if (seen.has(id) || !keyMayUse(key, id)) continue;
      seen.add(id);
      listed.push({ id, operation: 'chat', ownedBy: channel.config.provider, created: catalog.listingDate(), displayName: id });
    }
  }
  return listed;
}
