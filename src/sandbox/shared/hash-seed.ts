import { createHash } from 'node:crypto';

export interface HashSeed {
  /** The sha256 of the input, hex. */
  hex: string;
  /** Its first 32 bits, to seed a Prng. */
  seed: number;
}

/** Hashes a string (typically a canonical request as JSON) into a seed. */
export function hashSeed(text: string): HashSeed {
  const digest = createHash('sha256').update(text).digest();
  return { hex: digest.toString('hex'), seed: digest.readUInt32BE(0) };
}
