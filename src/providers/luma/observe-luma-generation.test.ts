import { describe, expect, it } from 'vitest';
import { observeLumaGeneration } from './observe-luma-generation.js';

describe('observeLumaGeneration', () => {
  it('maps every documented state', () => {
    expect(observeLumaGeneration({ id: 'g', state: 'queued' })).toEqual({ status: 'submitted', vendorStatus: 'queued' });
    expect(observeLumaGeneration({ id: 'g', state: 'dreaming' })).toEqual({ status: 'running', vendorStatus: 'dreaming' });
    expect(observeLumaGeneration({ id: 'g', state: 'completed', assets: { video: 'https://cdn.example/v.mp4' } })).toEqual({
      status: 'succeeded',
      vendorStatus: 'completed',
      progress: 1,
      outputs: [{ url: 'https://cdn.example/v.mp4', kind: 'video' }],
    });
    expect(observeLumaGeneration({ id: 'g', state: 'failed', failure_reason: 'GPU fell over' })).toEqual({
      status: 'failed',
      vendorStatus: 'failed',
      error: { code: 'upstream_failed', message: 'Luma: GPU fell over' },
    });
  });

  it('keeps an unknown state as unknown, its word bounded', () => {
    expect(observeLumaGeneration({ id: 'g', state: 'upscaling' })).toEqual({ status: 'unknown', vendorStatus: 'upscaling' });
    expect(observeLumaGeneration({ id: 'g', state: 'x'.repeat(100) }).vendorStatus).toHaveLength(64);
  });

  it('fails a completed generation without a usable video URL', () => {
    for (const assets of [null, {}, { video: 'ftp://x/v.mp4' }, { video: `https://x/${'a'.repeat(2100)}` }]) {
      expect(observeLumaGeneration({ id: 'g', state: 'completed', assets })).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    }
  });

  it('classifies moderation failures and cleans the reason of URLs and the key', () => {
    const observed = observeLumaGeneration(
      { id: 'g', state: 'failed', failure_reason: 'Prompt failed moderation (key sk-secret-12345, see https://x.example/a)' },
      ['sk-secret-12345'],
    );
    expect(observed.error).toEqual({ code: 'content_policy', message: 'Luma: Prompt failed moderation (key [redacted], see [url]' });
    expect(observeLumaGeneration({ id: 'g', state: 'failed' }).error?.message).toMatch(/without a reason/);
  });
});
