import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEVICE_TTL_MS, KnownDevices } from './known-device.js';

describe('KnownDevices', () => {
  const key = randomBytes(32);
  const devices = new KnownDevices(() => key);

  it('recognises its own cookie for the account it was issued to, keeping the device id', () => {
    const cookie = devices.issue('acc_1', 'device-one');
    expect(devices.verify(cookie, 'acc_1')).toBe('device-one');
    expect(devices.verify(devices.issue('acc_1', 'device-one'), 'acc_1')).toBe('device-one');
  });

  it('refuses another account, a changed or foreign signature, an expired cookie and junk', () => {
    const now = Date.now();
    const cookie = devices.issue('acc_1', 'device-one', now);
    expect(devices.verify(cookie, 'acc_2')).toBeUndefined();
    expect(devices.verify(`${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`, 'acc_1')).toBeUndefined();
    expect(devices.verify(new KnownDevices(() => randomBytes(32)).issue('acc_1', 'device-one'), 'acc_1')).toBeUndefined();
    expect(devices.verify(cookie, 'acc_1', now + DEVICE_TTL_MS)).toBeUndefined();
    for (const junk of [undefined, '', 'a.b.c', 'a.b.c.d.e', 'x'.repeat(1000)]) expect(devices.verify(junk, 'acc_1')).toBeUndefined();
  });
});
