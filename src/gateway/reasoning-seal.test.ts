import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReasoningSeal } from './reasoning-seal.js';

const SECRET = Buffer.alloc(32, 7);
const proof = { provider: 'anthropic', signature: 'sig-EqQBCgIYAhIM', text: 'Let me think about 17 × 23.' };

function flipCharAt(text: string, index: number): string {
  const c = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + c + text.slice(index + 1);
}

describe('ReasoningSeal', () => {
  it('opens what it sealed, field for field, and hides the text', () => {
    const seal = new ReasoningSeal(SECRET);
    const sealed = seal.seal(proof);
    expect(sealed).not.toContain('17');
    expect(sealed).not.toContain('sig-EqQBCgIYAhIM');
    expect(seal.open(sealed)).toEqual(proof);
    expect(seal.open(seal.seal({ provider: 'gemini', signature: 'c2ln' }))).toEqual({ provider: 'gemini', signature: 'c2ln' });
  });

  it('seals the same proof differently each time (a fresh nonce)', () => {
    const seal = new ReasoningSeal(SECRET);
    expect(seal.seal(proof)).not.toBe(seal.seal(proof));
  });

  it('refuses anything altered, truncated, foreign or not an envelope, without throwing', () => {
    const seal = new ReasoningSeal(SECRET);
    const sealed = seal.seal(proof);
    for (const index of [6, 20, 40, sealed.length - 3]) expect(seal.open(flipCharAt(sealed, index))).toBeUndefined();
    expect(seal.open(sealed.slice(0, -4))).toBeUndefined();
    expect(seal.open(sealed.slice(0, 20))).toBeUndefined();
    expect(seal.open(`${sealed}AA`)).toBeUndefined();
    expect(new ReasoningSeal(randomBytes(32)).open(sealed)).toBeUndefined();
    for (const value of ['', 'ggr1_', 'ggr1_!!!!', 'gAAAAABoE0', 'x'.repeat(100), `ggr1_${'A'.repeat(64)}`]) expect(seal.open(value)).toBeUndefined();
    expect(seal.open(42 as unknown as string)).toBeUndefined();
    expect(seal.open(`ggr1_${'A'.repeat(17 * 1024 * 1024)}`)).toBeUndefined();
  });

  it('does not open what the credential cipher would seal with the raw secret (its own derived key)', async () => {
    const { CredentialCipher } = await import('../store/credential-cipher.js');
    const envelope = new CredentialCipher(SECRET).encrypt(JSON.stringify(proof), 'gengate responses reasoning seal v1');
    const [, , iv, tag, data] = envelope.split('.');
    const raw = Buffer.concat([Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(data, 'base64url')]).toString('base64url');
    expect(new ReasoningSeal(SECRET).open(`ggr1_${raw}`)).toBeUndefined();
  });

  it('still opens what a previous secret sealed after a rotation, and seals with the new one', () => {
    const old = new ReasoningSeal(SECRET);
    const sealedBefore = old.seal(proof);
    const rotated = new ReasoningSeal(randomBytes(32), [SECRET]);
    expect(rotated.open(sealedBefore)).toEqual(proof);
    expect(old.open(rotated.seal(proof))).toBeUndefined();
  });
});
