import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { decodeTokenInputs } from './decode-token-inputs.js';

describe('decodeTokenInputs', () => {
  it('returns texts untouched', async () => {
    expect(await decodeTokenInputs(['a', 'b'])).toEqual(['a', 'b']);
  });

  it('decodes cl100k_base token ids ("hello" = 15339, " world" = 1917)', async () => {
    expect(await decodeTokenInputs([[15339, 1917], 'as text', [15339]])).toEqual(['hello world', 'as text', 'hello']);
  });

  it('refuses ids outside the encoding, naming the input', async () => {
    const error = await decodeTokenInputs(['ok', [15339, 999_999_999]]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).param).toBe('input[1]');
    expect((error as GatewayError).status).toBe(400);
    const single = await decodeTokenInputs([[999_999_999]]).catch((e: unknown) => e);
    expect((single as GatewayError).param).toBe('input');
  });
});
