/**
 * The one place a provider is assembled: name, operations, dialect and the simulation flag come
 * from its descriptor, so neither a descriptor nor its factory restates them.
 */
import type { Provider, ProviderDescriptor, ProviderParts } from './types.js';

export function createProvider(descriptor: ProviderDescriptor): Provider {
  return providerOf(descriptor, descriptor.factory());
}

/** The provider of `descriptor` with parts made elsewhere (the sandbox with partial settings). */
export function providerOf(descriptor: ProviderDescriptor, parts: ProviderParts): Provider {
  return {
    name: descriptor.name,
    operations: new Set(descriptor.operations),
    ...(descriptor.dialect ? { dialect: descriptor.dialect } : {}),
    ...(descriptor.simulated ? { simulated: true } : {}),
    ...parts,
  };
}
