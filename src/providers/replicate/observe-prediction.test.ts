import { describe, expect, it } from 'vitest';
import { observePrediction, outputUrls, progressFromLogs, sanitize } from './observe-prediction.js';

describe('observePrediction', () => {
  it('maps every Replicate status explicitly', () => {
    const statuses = ['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted', 'queued', 'toString', ''];
    const mapped = statuses.map((status) => observePrediction({ status, output: ['https://replicate.delivery/a.png'] }).status);
    expect(mapped).toEqual(['submitted', 'running', 'succeeded', 'failed', 'canceled', 'canceled', 'unknown', 'unknown', 'unknown']);
  });

  it('keeps the vendor word, bounded', () => {
    expect(observePrediction({ status: 'processing' }).vendorStatus).toBe('processing');
    expect(observePrediction({ status: 'x'.repeat(500) }).vendorStatus).toHaveLength(64);
  });

  it('gives a succeeded prediction its output URLs as images, with the seed from the logs', () => {
    expect(
      observePrediction({
        status: 'succeeded',
        output: ['https://replicate.delivery/xezq/a/out-0.png', 'https://replicate.delivery/xezq/a/out-1.png'],
        logs: 'Using seed: 1234\nRunning inference\n',
      }),
    ).toEqual({
      status: 'succeeded',
      vendorStatus: 'succeeded',
      progress: 1,
      seed: '1234',
      outputs: [
        { url: 'https://replicate.delivery/xezq/a/out-0.png', kind: 'image' },
        { url: 'https://replicate.delivery/xezq/a/out-1.png', kind: 'image' },
      ],
    });
    expect(observePrediction({ status: 'succeeded', output: 'https://replicate.delivery/one.webp' }).outputs).toEqual([
      { url: 'https://replicate.delivery/one.webp', kind: 'image' },
    ]);
  });

  it('fails a succeeded prediction that carries no URL rather than succeeding empty', () => {
    expect(observePrediction({ status: 'succeeded', output: null })).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    expect(observePrediction({ status: 'succeeded', output: ['not a url', 42] }).status).toBe('failed');
  });

  it('reports a failed prediction with its error text', () => {
    expect(observePrediction({ status: 'failed', error: 'CUDA error: out of memory' })).toEqual({
      status: 'failed',
      vendorStatus: 'failed',
      error: { code: 'upstream_failed', message: 'CUDA error: out of memory' },
    });
    expect(observePrediction({ status: 'failed', error: 'NSFW content detected. Try a different prompt.' }).error).toEqual({
      code: 'content_policy',
      message: 'NSFW content detected. Try a different prompt.',
    });
    expect(observePrediction({ status: 'failed', error: null }).error?.message).toBe('the Replicate prediction failed without a reason');
  });

  it('says an aborted prediction was aborted', () => {
    expect(observePrediction({ status: 'aborted' }).error).toEqual({ code: 'upstream_canceled', message: 'the Replicate prediction was aborted upstream' });
  });

  it('reads progress from a progress bar while running, and invents none', () => {
    expect(
      observePrediction({ status: 'processing', logs: 'Using seed: 1\n 25%|██▌       | 1/4 [00:00<00:01]\n 75%|███████▌  | 3/4 [00:01<00:00]' }).progress,
    ).toBe(0.75);
    expect(observePrediction({ status: 'processing', logs: 'Running inference' })).not.toHaveProperty('progress');
    expect(observePrediction({ status: 'starting', logs: ' 50%|█████' })).not.toHaveProperty('progress');
  });
});

describe('outputUrls', () => {
  it('keeps at most 16 http(s) URLs and ignores everything else', () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://replicate.delivery/o/${i}.png`);
    expect(outputUrls(many)).toHaveLength(16);
    expect(outputUrls(['data:image/png;base64,AAAA', 'file:///etc/passwd', { url: 'https://x' }, 'https://ok.example/a.png'])).toEqual([
      { url: 'https://ok.example/a.png', kind: 'image' },
    ]);
    expect(outputUrls(undefined)).toEqual([]);
  });
});

describe('progressFromLogs', () => {
  it('ignores percentages that are not a progress bar', () => {
    expect(progressFromLogs('memory at 95% of capacity')).toBeUndefined();
    expect(progressFromLogs('150%|')).toBeUndefined();
    expect(progressFromLogs(42)).toBeUndefined();
    expect(progressFromLogs('100%|██████████| 4/4')).toBe(1);
  });
});

describe('sanitize', () => {
  it('masks URLs, tokens and the given secrets, removes control characters and bounds the text', () => {
    expect(sanitize('download from https://internal.example:8443/x failed\r\n\tretry', [])).toBe('download from [url] failed retry');
    expect(sanitize('bad token r8_abcdefghijklmnop used')).toBe('bad token [redacted] used');
    expect(sanitize('key sk-channel-secret-1 leaked', ['sk-channel-secret-1'])).toBe('key [redacted] leaked');
    expect(sanitize('e'.repeat(5_000))).toHaveLength(501);
  });
});
