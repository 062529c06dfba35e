import { describe, expect, it } from 'vitest';
import { GatewayError } from './errors.js';
import { modelIdPathProblem, refusePathLikeModelId } from './model-id-path.js';

describe('modelIdPathProblem (finding 2: model ids are their own normal form)', () => {
  it.each([
    'textmodel-c-2.5-flash',
    'gemini-2.5-pro',
    'black-forest-labs/flux-1.1-pro',
    'meta-llama/llama-3.1-70b',
    'owner/name:version',
    'a..b',
    '...',
    '.hidden',
    'x.',
  ])('admits %s', (model) => {
    expect(modelIdPathProblem(model)).toBeUndefined();
  });

  it.each([
    'textmodel-c-2.5-flash/../gemini-2.5-pro',
    'textmodel-c-x/../../../v1beta/cachedContents?',
    'textmodel-c-2.5-flash%2F..%2Fx',
    'textmodel-c-2.5-flash%2e%2e',
    'textmodel-c-2.5-flash\\..\\x',
    'textmodel-c-2.5-flash?alt=x',
    'textmodel-c-2.5-flash#x',
    '..',
    '.',
    'x/./y',
    'x/..',
    '/x',
    'x/',
    'x//y',
  ])('refuses %s', (model) => {
    expect(modelIdPathProblem(model)).toBeDefined();
  });

  it('leaves the empty id to the checks that say it is missing', () => {
    expect(modelIdPathProblem('')).toBeUndefined();
  });

  it('refuses with the client 400 naming the model field', () => {
    let thrown: unknown;
    try {
      refusePathLikeModelId('x/../y');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ kind: 'invalid_request', status: 400, code: 'invalid_model', param: 'model' });
    expect(() => refusePathLikeModelId('gemini-2.5-flash')).not.toThrow();
  });
});
