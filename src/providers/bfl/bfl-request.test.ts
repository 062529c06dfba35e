import { describe, expect, it } from 'vitest';
import type { ImageGenerateRequest } from '../../core/image.js';
import type { ChannelConfig } from '../types.js';
import { bflHeaders, bflSubmitUrl, pollIntervalMs, toBflBody } from './bfl-request.js';

const channel: ChannelConfig = {
  name: 'bfl',
  provider: 'bfl',
  baseUrl: 'https://api.bfl.ai/',
  apiKey: 'bfl-key',
  headers: { 'X-Team': 'art' },
  timeoutMs: 60_000,
  options: {},
};

const ask = (extra: Partial<ImageGenerateRequest> = {}): ImageGenerateRequest => ({
  model: 'imagegen1-pro',
  prompt: 'a lighthouse at dusk',
  n: 1,
  responseFormat: 'url',
  ...extra,
});

describe('toBflBody', () => {
  it('sends width and height for the sized models', () => {
    expect(toBflBody(ask({ size: { width: 1024, height: 768 } }), 'flux-pro-1.1', channel)).toEqual({
      prompt: 'a lighthouse at dusk',
      width: 1024,
      height: 768,
      output_format: 'png',
    });
  });

  it('rounds the size to what BFL accepts', () => {
    expect(toBflBody(ask({ size: { width: 1000, height: 750 } }), 'flux-dev', channel)).toMatchObject({ width: 992, height: 736 });
  });

  it('leaves the size to the upstream when none was asked', () => {
    expect(toBflBody(ask(), 'flux-pro', channel)).toEqual({ prompt: 'a lighthouse at dusk', output_format: 'png' });
  });

  it('turns an aspect ratio into a size for the sized models', () => {
    expect(toBflBody(ask({ aspectRatio: '16:9' }), 'flux-pro', channel)).toMatchObject({ width: 1376, height: 768 });
  });

  it('sends an aspect ratio to ultra, derived from the size', () => {
    expect(toBflBody(ask({ size: { width: 1792, height: 1024 } }), 'flux-pro-1.1-ultra', channel)).toEqual({
      prompt: 'a lighthouse at dusk',
      aspect_ratio: '7:4',
      output_format: 'png',
    });
    expect(toBflBody(ask({ aspectRatio: '21:9', options: { raw: true } }), 'flux-pro-1.1-ultra', channel)).toEqual({
      prompt: 'a lighthouse at dusk',
      aspect_ratio: '21:9',
      raw: true,
      output_format: 'png',
    });
  });

  it('gives each of n tasks the next seed', () => {
    expect(toBflBody(ask({ seed: 42 }), 'flux-pro', channel, 0).seed).toBe(42);
    expect(toBflBody(ask({ seed: 42 }), 'flux-pro', channel, 2).seed).toBe(44);
  });

  it('passes JPEG, safety tolerance and prompt upsampling', () => {
    const body = toBflBody(ask({ options: { outputFormat: 'jpeg', safetyTolerance: 5, promptUpsampling: true } }), 'flux-pro', channel);
    expect(body).toEqual({ prompt: 'a lighthouse at dusk', output_format: 'jpeg', safety_tolerance: 5, prompt_upsampling: true });
  });

  it('takes the safety tolerance from the channel, ignoring values outside 0–6', () => {
    expect(toBflBody(ask(), 'flux-pro', { ...channel, options: { safetyTolerance: 1 } }).safety_tolerance).toBe(1);
    expect(toBflBody(ask({ options: { safetyTolerance: 9 } }), 'flux-pro', channel)).not.toHaveProperty('safety_tolerance');
  });
});

describe('BFL endpoint and headers', () => {
  it('posts to /v1/{model} with the x-key header', () => {
    expect(bflSubmitUrl(channel, 'flux-pro-1.1')).toBe('https://api.bfl.ai/v1/flux-pro-1.1');
    expect(bflHeaders(channel, true)).toEqual({ 'x-key': 'bfl-key', accept: 'application/json', 'content-type': 'application/json', 'x-team': 'art' });
    expect(bflHeaders(channel, false)).not.toHaveProperty('content-type');
  });

  it('polls every 500 ms unless the channel says otherwise', () => {
    expect(pollIntervalMs(channel)).toBe(500);
    expect(pollIntervalMs({ ...channel, options: { pollIntervalMs: 20 } })).toBe(20);
  });
});
