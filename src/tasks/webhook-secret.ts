/**
 * The secret that signs an owner's webhooks, derived from the gateway's secret key (the one that
 * seals stored credentials, see `loadSecretKey`): nothing to store, the same on every gateway
 * process sharing the key, and different for every owner. Rotating the key changes every secret.
 */
import { createHmac } from 'node:crypto';

const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function webhookSecretFor(secretKey: Uint8Array, ownerId: string): string {
  const mac = createHmac('sha256', secretKey).update(`gengate-webhook:${ownerId}`).digest('base64url');
  return `${WEBHOOK_SECRET_PREFIX}${mac}`;
}
