import { describe, expect, it } from 'vitest';
import { fromArkTask } from './from-ark-task.js';

const VIDEO = 'https://ark-content-generation-cn-beijing.tos-cn-beijing.volces.com/doubao-seedance-1-0-pro/x.mp4?X-Tos-Expires=86400';

describe('fromArkTask', () => {
  it('maps queued and running', () => {
    expect(fromArkTask({ id: 'cgt-1', status: 'queued' })).toEqual({ status: 'submitted', vendorStatus: 'queued' });
    expect(fromArkTask({ id: 'cgt-1', status: 'running' })).toEqual({ status: 'running', vendorStatus: 'running' });
  });

  it('maps succeeded to the video to copy, with the seconds and tokens Ark reports', () => {
    expect(
      fromArkTask({
        id: 'cgt-1',
        status: 'succeeded',
        content: { video_url: VIDEO },
        usage: { completion_tokens: 108900, total_tokens: 108900 },
        seed: 10,
        duration: 5,
        framespersecond: 24,
      }),
    ).toEqual({
      status: 'succeeded',
      vendorStatus: 'succeeded',
      progress: 1,
      outputs: [{ url: VIDEO, kind: 'video' }],
      usage: { seconds: 5, totalTokens: 108900 },
      seed: '10',
    });
  });

  it('reads the seconds from frames when the task was asked in frames', () => {
    expect(fromArkTask({ status: 'succeeded', content: { video_url: VIDEO }, frames: 121, framespersecond: 24 }).usage).toEqual({ seconds: 5.04 });
  });

  it('fails a success without a usable video URL', () => {
    for (const content of [null, {}, { video_url: 'ftp://x' }, { video_url: 42 }]) {
      expect(fromArkTask({ status: 'succeeded', content })).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    }
  });

  it("keeps Ark's failure reason, content checks as content_policy", () => {
    expect(
      fromArkTask({
        status: 'failed',
        error: { code: 'OutputVideoSensitiveContentDetected', message: 'The request failed because the output video may contain sensitive information.' },
      }),
    ).toEqual({
      status: 'failed',
      vendorStatus: 'failed',
      error: { code: 'content_policy', message: 'The request failed because the output video may contain sensitive information.' },
    });
    expect(fromArkTask({ status: 'failed', error: { code: 'InternalServiceError', message: 'see https://ark.example/x' } }).error).toEqual({
      code: 'upstream_failed',
      message: 'see <url>',
    });
    expect(fromArkTask({ status: 'failed', error: null }).error).toEqual({ code: 'upstream_failed', message: 'The upstream failed the task.' });
  });

  it('maps cancelled and expired, and anything else to unknown', () => {
    expect(fromArkTask({ status: 'cancelled' })).toMatchObject({ status: 'canceled', vendorStatus: 'cancelled' });
    expect(fromArkTask({ status: 'expired' })).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(fromArkTask({ status: 'paused' })).toEqual({ status: 'unknown', vendorStatus: 'paused' });
    expect(fromArkTask({})).toEqual({ status: 'unknown', vendorStatus: 'missing' });
  });
});
