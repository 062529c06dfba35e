import { GatewayError } from '../../core/errors.js';
import { createPrng } from './prng.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { fnv1a } from './fnv1a.js';

function injected(reason: string): GatewayError {
  return new GatewayError('overloaded', `sandbox: injected failure (${reason})`, {
    retryable: true,
    upstreamStatus: 503,
    code: 'sandbox_injected_failure',
  });
}

/**
 * Throws the retryable failure a drill asked for, or returns. The roll mixes the channel
 * name into the request's seed so that one request fails on some sandbox channels and not
 * on others, letting failover drills succeed on a second channel.
 */
export function throwIfInjectedFailure(settings: SandboxRuntimeSettings, requestSeed: number, channelName: string, modelIds: readonly string[]): void {
  for (const model of modelIds) {
    if (settings.failModels.has(model)) throw injected(`model ${model} is configured to fail`);
  }
  if (settings.failureRate <= 0) return;
  const roll = createPrng(requestSeed ^ fnv1a(channelName)).next();
  if (roll < settings.failureRate) throw injected(`failureRate ${settings.failureRate}`);
}
