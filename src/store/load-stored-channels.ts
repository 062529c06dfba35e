/**
 * The stored channels, checked like the configuration file's: a channel whose provider is no
 * longer registered, or whose fields are off, is reported by name instead of failing later. The
 * composition root hands in the provider descriptors, so the store loads no provider.
 */
import type { ChannelDefinition } from '../config/types.js';
import { validateChannel } from '../config/validate-config.js';
import type { ProviderDescriptor } from '../providers/types.js';
import type { ChannelsRepository } from './channels-repository.js';

export async function loadStoredChannels(repository: Pick<ChannelsRepository, 'list'>, providers: readonly ProviderDescriptor[]): Promise<ChannelDefinition[]> {
  const stored = await repository.list();
  return stored.map((definition) => validateChannel(definition, `stored channel "${definition.name}"`, providers, { stored: true }));
}
