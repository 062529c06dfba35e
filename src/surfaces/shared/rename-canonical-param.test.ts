import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { paramTable, renameCanonicalParam } from './rename-canonical-param.js';

const names = paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'image_url' });

describe('renameCanonicalParam', () => {
  it('renames the param and the message’s leading field name, keeping kind, status and code', () => {
    const error = new GatewayError('invalid_request', 'seconds: this model makes 6 or 10 second videos, got 5', {
      param: 'seconds',
      code: 'unsupported_value',
    });
    const renamed = renameCanonicalParam(error, names) as GatewayError;
    expect(renamed).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      param: 'duration',
      code: 'unsupported_value',
      message: 'duration: this model makes 6 or 10 second videos, got 5',
    });
  });

  it('maps indexed canonical names through their base name, and leads a message that names no field with the client field', () => {
    const error = new GatewayError('invalid_request', 'this vendor takes no reference image', { param: 'images[0]' });
    expect(renameCanonicalParam(error, names)).toMatchObject({ param: 'image_url', message: 'image_url: this vendor takes no reference image' });
  });

  it('passes errors without a param, with an unknown one, and non-gateway errors unchanged', () => {
    const plain = new GatewayError('upstream', 'upstream failed');
    const other = new GatewayError('invalid_request', 'x', { param: 'model' });
    const thrown = new Error('boom');
    expect(renameCanonicalParam(plain, names)).toBe(plain);
    expect(renameCanonicalParam(other, names)).toBe(other);
    expect(renameCanonicalParam(thrown, names)).toBe(thrown);
  });
});
