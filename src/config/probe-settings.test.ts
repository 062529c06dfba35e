import { describe, expect, it } from 'vitest';
import type { ProviderDescriptor } from '../providers/types.js';
import { ConfigError, validateChannel } from './validate-config.js';

const acme: ProviderDescriptor = { name: 'acme', operations: ['chat'], defaultBaseUrl: 'https://api.acme.test/v2', factory: () => ({}) };
const check = (extra: Record<string, unknown>, stored = false) => validateChannel({ name: 'a', provider: 'acme', ...extra }, 'channels[0]', [acme], { stored });

describe("a channel's probe settings", () => {
  it('has none unless `probe` is given; given, it probes every 60 s without re-enabling', () => {
    expect(check({}).probe).toBeUndefined();
    expect(check({ probe: null }).probe).toBeUndefined();
    expect(check({ probe: {} }).probe).toEqual({ enabled: true, intervalSeconds: 60, autoEnable: false });
    expect(check({ probe: { enabled: false, intervalSeconds: 15, autoEnable: true } }).probe).toEqual({
      enabled: false,
      intervalSeconds: 15,
      autoEnable: true,
    });
    expect(check({ probe: { intervalSeconds: 3600 } }).probe?.intervalSeconds).toBe(3600);
  });

  it('refuses intervals outside 15..3600 whole seconds, non-boolean switches and unknown fields, naming the field', () => {
    for (const intervalSeconds of [14, 3601, 30.5, '60', -1, Number.NaN]) {
      expect(() => check({ probe: { intervalSeconds } })).toThrow(/channels\[0\]\.probe\.intervalSeconds must be a whole number of seconds from 15 to 3600/);
    }
    expect(() => check({ probe: { autoEnable: 'yes' } })).toThrow(/channels\[0\]\.probe\.autoEnable must be true or false/);
    expect(() => check({ probe: { enabled: 1 } })).toThrow(/probe\.enabled must be true or false/);
    expect(() => check({ probe: { every: 30 } })).toThrow(/probe\.every is not a probe setting/);
    expect(() => check({ probe: [] })).toThrow(ConfigError);
    expect(() => check({ probe: 'on' })).toThrow(/probe must be a mapping/);
  });

  it("keeps the gateway's own switch-off only on a stored, disabled channel", () => {
    expect(check({ enabled: false, autoDisabledAt: 5 }, true).autoDisabledAt).toBe(5);
    expect(check({ enabled: true, autoDisabledAt: 5 }, true).autoDisabledAt).toBeUndefined();
    expect(check({ enabled: false, autoDisabledAt: 5 }, false).autoDisabledAt).toBeUndefined();
  });
});
