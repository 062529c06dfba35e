/**
 * The known-device cookie, set at every successful sign-in: the account, a random device id and
 * when it was issued, signed with an HMAC under the gateway's secret key. A browser presenting
 * it when signing in to that same account is exempt from the limits a stranger can run up (per
 * email, per address); only its own failures count against it (admin/sign-in-throttle.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'gengate_device';
/** A device stays known this long after its last sign-in. */
export const DEVICE_TTL_MS = 365 * 24 * 3_600_000;
const MAX_COOKIE_CHARS = 400;

export class KnownDevices {
  constructor(private readonly secretKey: () => Uint8Array) {}

  /** A cookie value for `accountId`; keeps `deviceId` when the browser was known already. */
  issue(accountId: string, deviceId = randomBytes(16).toString('base64url'), now = Date.now()): string {
    const payload = `${Buffer.from(accountId).toString('base64url')}.${deviceId}.${now.toString(36)}`;
    return `${payload}.${this.mac(payload)}`;
  }

  /** The device id of `cookie` when it is a genuine, unexpired cookie of `accountId`. */
  verify(cookie: string | undefined, accountId: string, now = Date.now()): string | undefined {
    if (cookie === undefined || cookie.length > MAX_COOKIE_CHARS) return undefined;
    const parts = cookie.split('.');
    if (parts.length !== 4) return undefined;
    const [account, deviceId, issued, mac] = parts;
    const presented = Buffer.from(mac);
    const expected = Buffer.from(this.mac(`${account}.${deviceId}.${issued}`));
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
    if (Buffer.from(account, 'base64url').toString() !== accountId) return undefined;
    const age = now - Number.parseInt(issued, 36);
    return age >= 0 && age < DEVICE_TTL_MS ? deviceId : undefined;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secretKey()).update(`gengate-known-device:${payload}`).digest('base64url');
  }
}
