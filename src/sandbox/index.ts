/**
 * The built-in sandbox provider: serves operations offline with simulated, deterministic,
 * realistically shaped answers, for demos, tests and benchmarks. Each operation lives in
 * its own folder (`chat/`, `embed/`, `images/`, `tasks/`); `shared/` holds what they share.
 */
import { providerOf } from '../providers/create-provider.js';
import type { Attempt, Provider, ProviderDescriptor, ProviderParts } from '../providers/types.js';
import { createSandboxChat } from './chat/sandbox-chat.js';
import { createSandboxEmbed } from './embed/sandbox-embed.js';
import { createSandboxImages } from './images/sandbox-images.js';
import { sandboxMediaLimits } from './sandbox-media-limits.js';
import { createSettingsResolver, type SandboxSettings } from './sandbox-settings.js';
import { createSandboxTasks } from './tasks/sandbox-tasks.js';

/** Reaches no upstream: no base URL, and every answer says it is simulated. */
export const sandboxDescriptor: ProviderDescriptor = {
  name: 'sandbox',
  operations: [
    'chat',
    'embed',
    'image.generate',
    'image.edit',
    'image.remix',
    'image.blend',
    'image.imagine',
    'image.describe',
    'image.action',
    'video.generate',
  ],
  simulated: true,
  factory: () => createSandboxParts(),
};

/** The sandbox with the gateway-wide settings (the composition root hands it to the provider registry) or some of them (tests, demos). */
export function createSandboxProvider(settings?: Partial<SandboxSettings>): Provider {
  return providerOf(sandboxDescriptor, createSandboxParts(settings));
}

/** `settings` are the gateway-wide defaults; a channel's `options` (same keys) override them. */
function createSandboxParts(settings?: Partial<SandboxSettings>): ProviderParts {
  const resolve = createSettingsResolver(settings);
  const settingsFor = (attempt: Attempt) => resolve(attempt.channel.options);
  const limits = sandboxMediaLimits(settings);
  return {
    chat: createSandboxChat(settingsFor),
    embed: createSandboxEmbed(settingsFor),
    images: createSandboxImages(settingsFor, limits.maxImageSide),
    tasks: createSandboxTasks((channel) => resolve(channel.options), limits),
  };
}
