/**
 * The seeds of sandbox tasks: the client's own when it gave a valid one, else a hash of what
 * shapes the pictures. Reported as decimal strings, like the MJ proxy's `image-seed`.
 */
import { createHash } from 'node:crypto';
import type { ImageInput } from '../../core/image.js';
import { hashSeed } from '../shared/hash-seed.js';

const MAX_SEED = 0xffffffff;

/** The client's seed when it is a whole number the sandbox can draw from, else one hashed from `parts`. */
export function taskSeed(clientSeed: number | undefined, parts: readonly unknown[]): number {
  if (clientSeed !== undefined && Number.isInteger(clientSeed) && clientSeed >= 0 && clientSeed <= MAX_SEED) return clientSeed;
  return hashSeed(JSON.stringify(parts)).seed;
}

/** Images stand in a seed's parts by the hash of their bytes. */
export function imageDigest(image: ImageInput): string {
  return createHash('sha256').update(image.data).digest('hex');
}

export function seedText(seed: number): string {
  return String(seed >>> 0);
}
