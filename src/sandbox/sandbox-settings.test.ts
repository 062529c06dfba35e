import { describe, expect, it } from 'vitest';
import { completeSandboxSettings, createSettingsResolver, resolveSandboxSettings } from './sandbox-settings.js';

const BASE = { tokensPerSecond: 50, firstTokenDelayMs: 10, failureRate: 0.1 };

describe('sandbox settings', () => {
  it('fills missing settings with the gateway defaults', () => {
    expect(completeSandboxSettings(undefined)).toEqual({ tokensPerSecond: 200, firstTokenDelayMs: 20, failureRate: 0, taskMs: 4000, taskFailureRate: 0 });
    expect(completeSandboxSettings({ tokensPerSecond: 7, taskMs: 0 })).toEqual({
      tokensPerSecond: 7,
      firstTokenDelayMs: 20,
      failureRate: 0,
      taskMs: 0,
      taskFailureRate: 0,
    });
  });

  it('lets channel options override the settings and adds the channel-only drills', () => {
    const resolved = resolveSandboxSettings(BASE, {
      tokensPerSecond: 1000,
      firstTokenDelayMs: 0,
      failureRate: 0.5,
      failModels: ['m1', 3, 'm2'],
      failMidStream: true,
      taskMs: 250,
      taskFailureRate: 0.25,
    });
    expect(resolved).toEqual({
      tokensPerSecond: 1000,
      firstTokenDelayMs: 0,
      failureRate: 0.5,
      failModels: new Set(['m1', 'm2']),
      failMidStream: true,
      taskMs: 250,
      taskFailureRate: 0.25,
    });
  });

  it('ignores invalid option values and clamps the failure rate', () => {
    const resolved = resolveSandboxSettings(BASE, {
      tokensPerSecond: -1,
      firstTokenDelayMs: 'soon',
      failureRate: 7,
      failModels: 'm1',
      failMidStream: 'yes',
      taskMs: -5,
      taskFailureRate: -1,
    });
    expect(resolved).toEqual({
      tokensPerSecond: 50,
      firstTokenDelayMs: 10,
      failureRate: 1,
      failModels: new Set(),
      failMidStream: false,
      taskMs: 4000,
      taskFailureRate: 0,
    });
  });

  it('resolves each options object once', () => {
    const resolve = createSettingsResolver(BASE);
    const options = { tokensPerSecond: 5 };
    expect(resolve(options)).toBe(resolve(options));
    expect(resolve(options).tokensPerSecond).toBe(5);
  });
});
