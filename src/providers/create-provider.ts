/**
 * The one place a provider is assembled: name, operations, dialect, the simulation flag and the
 * task poll policy come from its descriptor, so neither a descriptor nor its factory restates them.
 */
import { pollPolicyWithOptions } from './shared/task-poll-options.js';
import type { Provider, ProviderDescriptor, ProviderParts, TaskParts, TaskProvider } from './types.js';

export function createProvider(descriptor: ProviderDescriptor): Provider {
  return providerOf(descriptor, descriptor.factory());
}

/** The provider of `descriptor` with parts made elsewhere (the sandbox with partial settings). */
export function providerOf(descriptor: ProviderDescriptor, { tasks, ...parts }: ProviderParts): Provider {
  return {
    name: descriptor.name,
    operations: new Set(descriptor.operations),
    ...(descriptor.dialect ? { dialect: descriptor.dialect } : {}),
    ...(descriptor.simulated ? { simulated: true } : {}),
    ...parts,
    ...(tasks ? { tasks: withPollPolicy(descriptor, tasks) } : {}),
  };
}

function withPollPolicy(descriptor: ProviderDescriptor, tasks: TaskParts): TaskProvider {
  const { pollPolicy } = tasks;
  if (pollPolicy) return { ...tasks, pollPolicy };
  const polling = descriptor.taskPolling;
  if (!polling) throw new Error(`provider ${descriptor.name}: a task part without pollPolicy needs the descriptor's taskPolling`);
  return { ...tasks, pollPolicy: (channel) => pollPolicyWithOptions(polling, channel) };
}
