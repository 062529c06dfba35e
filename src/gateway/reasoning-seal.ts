/**
 * Seals the vendor proof of a reasoning item (`SealedReasoning`) into the opaque
 * `encrypted_content` a Responses client holds and sends back: AES-256-GCM under a key derived
 * with HKDF from the gateway's secret key (the one that seals stored credentials) with its own
 * purpose label, so the two uses never share a key. `open` answers undefined for anything it did
 * not seal itself — forged, altered, truncated, another gateway's, or not an envelope at all —
 * and never throws. Keys in force before a rotation still open what they sealed.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SealedReasoning } from '../core/responses.js';

const PREFIX = 'ggr1_';
const PURPOSE = 'gengate responses reasoning seal v1';
const ASSOCIATED_DATA = Buffer.from(PURPOSE, 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Reasoning text runs to hundreds of kilobytes; anything far beyond is not one of ours. */
const MAX_ENVELOPE_CHARS = 16 * 1024 * 1024;
const MAX_PROVIDER_CHARS = 64;
const TEXT_FIELDS = ['signature', 'text', 'redacted', 'encrypted', 'itemId'] as const;

function sealKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), PURPOSE, 32));
}

export class ReasoningSeal {
  private readonly keys: Buffer[];

  /** `secret` seals and opens; `previous` secrets (before a rotation) only open. */
  constructor(secret: Buffer, previous: readonly Buffer[] = []) {
    this.keys = [secret, ...previous].map(sealKey);
  }

  seal(reasoning: SealedReasoning): string {
    const plain: Record<string, string> = { provider: reasoning.provider };
    for (const field of TEXT_FIELDS) if (reasoning[field] !== undefined) plain[field] = reasoning[field];
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    cipher.setAAD(ASSOCIATED_DATA);
    const data = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  open(encryptedContent: unknown): SealedReasoning | undefined {
    if (typeof encryptedContent !== 'string' || !encryptedContent.startsWith(PREFIX) || encryptedContent.length > MAX_ENVELOPE_CHARS) return undefined;
    const body = encryptedContent.slice(PREFIX.length);
    if (!/^[A-Za-z0-9_-]*$/.test(body)) return undefined;
    const bytes = Buffer.from(body, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    const iv = bytes.subarray(0, IV_BYTES);
    const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const data = bytes.subarray(IV_BYTES + TAG_BYTES);
    for (const key of this.keys) {
      const plain = decrypt(key, iv, tag, data);
      if (plain !== undefined) return reasoningOf(plain);
    }
    return undefined;
  }
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(ASSOCIATED_DATA);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What an authenticated plaintext holds, checked all the same (a version that sealed more fields, say). */
function reasoningOf(plain: string): SealedReasoning | undefined {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.provider !== 'string' || fields.provider.length === 0 || fields.provider.length > MAX_PROVIDER_CHARS) return undefined;
  const reasoning: SealedReasoning = { provider: fields.provider };
  for (const field of TEXT_FIELDS) {
    const text = fields[field];
    if (text === undefined) continue;
    if (typeof text !== 'string') return undefined;
    reasoning[field] = text;
  }
  return reasoning;
}
