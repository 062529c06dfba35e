import { describe, expect, it } from 'vitest';
import type { ImageGenerateRequest } from '../../core/image.js';
import type { ChannelConfig } from '../types.js';
import { makesOneImage, pollIntervalMs, predictionTarget, replicateHeaders, toReplicateInput } from './replicate-request.js';

const channel: ChannelConfig = {
  name: 'replicate',
  provider: 'replicate',
  baseUrl: 'https://api.replicate.com/',
  apiKey: 'r8_token',
  headers: {},
  timeoutMs: 60_000,
  options: {},
};

const ask = (extra: Partial<ImageGenerateRequest> = {}): ImageGenerateRequest => ({
  model: 'imagegen1-schnell',
  prompt: 'a red kite',
  n: 1,
  responseFormat: 'url',
  ...extra,
});

describe('predictionTarget', () => {
  it('posts official models to their predictions endpoint', () => {
    expect(predictionTarget(channel, 'black-forest-labs/flux-schnell')).toEqual({
      url: 'https://api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions',
      extraBody: {},
    });
  });

  it('posts a pinned version to /v1/predictions', () => {
    expect(predictionTarget(channel, 'stability-ai/sdxl:7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc')).toEqual({
      url: 'https://api.replicate.com/v1/predictions',
      extraBody: { version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc' },
    });
  });
});

describe('predictionTarget (finding 2)', () => {
  it('takes `owner/name` as exactly two plain path segments', () => {
    for (const model of ['flux-schnell', 'owner/name/extra', 'owner/..', '../name', 'owner/', '/name', 'owner/na%2Fme']) {
      expect(() => predictionTarget(channel, model)).toThrow(expect.objectContaining({ kind: 'invalid_request', code: 'invalid_model' }));
    }
  });
});

describe('toReplicateInput', () => {
  it('gives Flux models an aspect ratio (and the size for models that read it)', () => {
    expect(toReplicateInput(ask({ size: { width: 1024, height: 768 } }), 'black-forest-labs/flux-schnell', 2)).toEqual({
      prompt: 'a red kite',
      width: 1024,
      height: 768,
      aspect_ratio: '4:3',
      num_outputs: 2,
      output_format: 'png',
    });
  });

  it('gives Flux Pro a custom size rounded to what it accepts', () => {
    expect(makesOneImage('black-forest-labs/flux-1.1-pro')).toBe(true);
    expect(makesOneImage('black-forest-labs/flux-pro')).toBe(true);
    expect(makesOneImage('black-forest-labs/flux-1.1-pro-ultra')).toBe(false);
    expect(makesOneImage('black-forest-labs/flux-schnell')).toBe(false);
    expect(toReplicateInput(ask({ size: { width: 1000, height: 750 } }), 'black-forest-labs/flux-1.1-pro', 1, 99)).toEqual({
      prompt: 'a red kite',
      aspect_ratio: 'custom',
      width: 992,
      height: 736,
      num_outputs: 1,
      seed: 99,
      output_format: 'png',
    });
  });

  it('passes an aspect ratio the client gave', () => {
    expect(toReplicateInput(ask({ aspectRatio: '16:9' }), 'black-forest-labs/flux-1.1-pro', 1)).toEqual({
      prompt: 'a red kite',
      aspect_ratio: '16:9',
      num_outputs: 1,
      output_format: 'png',
    });
  });

  it('maps the output format and passes known tuning options', () => {
    const input = toReplicateInput(ask({ options: { outputFormat: 'jpeg', safetyTolerance: 4, quality: 'hd' } }), 'black-forest-labs/flux-pro', 1);
    expect(input).toEqual({ prompt: 'a red kite', num_outputs: 1, output_format: 'jpg', safety_tolerance: 4 });
    expect(toReplicateInput(ask({ options: { outputFormat: 'webp' } }), 'black-forest-labs/flux-dev', 1).output_format).toBe('webp');
  });
});

describe('replicate headers', () => {
  it('sends the Bearer token and, when waiting, Prefer: wait=N', () => {
    expect(replicateHeaders(channel, 42)).toEqual({ authorization: 'Bearer r8_token', 'content-type': 'application/json', prefer: 'wait=42' });
    expect(replicateHeaders(channel)).not.toHaveProperty('prefer');
  });

  it('polls every 500 ms unless the channel says otherwise', () => {
    expect(pollIntervalMs(channel)).toBe(500);
    expect(pollIntervalMs({ ...channel, options: { pollIntervalMs: 25 } })).toBe(25);
  });
});
