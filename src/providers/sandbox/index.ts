/**
 * The built-in sandbox provider: serves operations offline with simulated, deterministic,
 * realistically shaped answers, for demos, tests and benchmarks. Each operation lives in
 * its own folder (`chat/`, `embed/`, `images/`, `tasks/`); `shared/` holds what they share.
 */
import type { SandboxSettings } from '../../config/types.js';
import type { Operation } from '../../core/operation.js';
import type { Attempt, Provider, ProviderDescriptor } from '../types.js';
import { createSandboxChat } from './chat/sandbox-chat.js';
import { createSandboxEmbed } from './embed/sandbox-embed.js';
import { createSandboxImages } from './images/sandbox-images.js';
import { sandboxMediaLimits } from './sandbox-media-limits.js';
import { createSettingsResolver } from './sandbox-settings.js';
import { createSandboxTasks } from './tasks/sandbox-tasks.js';

const OPERATIONS: ReadonlySet<Operation> = new Set<Operation>([
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
]);

/** `settings` are the gateway-wide defaults; a channel's `options` (same keys) override them. */
export function createSandboxProvider(settings?: Partial<SandboxSettings>): Provider {
  const resolve = createSettingsResolver(settings);
  const settingsFor = (attempt: Attempt) => resolve(attempt.channel.options);
  const limits = sandboxMediaLimits(settings);
  return {
    name: 'sandbox',
    simulated: true,
    operations: OPERATIONS,
    chat: createSandboxChat(settingsFor),
    embed: createSandboxEmbed(settingsFor),
    images: createSandboxImages(settingsFor, limits.maxImageSide),
    tasks: createSandboxTasks((channel) => resolve(channel.options), limits),
  };
}

/** Reaches no upstream: no base URL, and every answer says it is simulated. */
export const sandboxDescriptor: ProviderDescriptor = {
  name: 'sandbox',
  operations: [...OPERATIONS],
  simulated: true,
  factory: (settings) => createSandboxProvider(settings.sandbox),
};
