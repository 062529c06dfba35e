import { describe, expect, it } from 'vitest';
import { observeRunwayTask } from './observe-runway-task.js';

describe('observeRunwayTask', () => {
  it('maps every documented status', () => {
    expect(observeRunwayTask({ id: 't', status: 'PENDING' })).toEqual({ status: 'submitted', vendorStatus: 'PENDING' });
    expect(observeRunwayTask({ id: 't', status: 'THROTTLED' })).toEqual({ status: 'submitted', vendorStatus: 'THROTTLED' });
    expect(observeRunwayTask({ id: 't', status: 'RUNNING', progress: 0.42 })).toEqual({ status: 'running', vendorStatus: 'RUNNING', progress: 0.42 });
    expect(observeRunwayTask({ id: 't', status: 'SUCCEEDED', output: ['https://cdn.example/o.mp4', 'https://cdn.example/p.mp4'] })).toEqual({
      status: 'succeeded',
      vendorStatus: 'SUCCEEDED',
      progress: 1,
      outputs: [{ url: 'https://cdn.example/o.mp4', kind: 'video' }],
    });
    expect(observeRunwayTask({ id: 't', status: 'CANCELLED' })).toMatchObject({
      status: 'canceled',
      vendorStatus: 'CANCELLED',
      error: { code: 'upstream_canceled' },
    });
    expect(observeRunwayTask({ id: 't', status: 'PAUSED' })).toEqual({ status: 'unknown', vendorStatus: 'PAUSED' });
  });

  it('bounds progress and ignores one that is not a number', () => {
    expect(observeRunwayTask({ status: 'RUNNING', progress: 7 }).progress).toBe(1);
    expect(observeRunwayTask({ status: 'RUNNING', progress: '50%' })).toEqual({ status: 'running', vendorStatus: 'RUNNING' });
  });

  it('carries the failure and its code; SAFETY codes are content refusals', () => {
    expect(observeRunwayTask({ status: 'FAILED', failure: 'Image flagged', failureCode: 'SAFETY.INPUT.IMAGE' }).error).toEqual({
      code: 'content_policy',
      message: 'Runway: Image flagged (SAFETY.INPUT.IMAGE)',
    });
    expect(observeRunwayTask({ status: 'FAILED', failure: 'Could not read https://x.example/a.png' }).error).toEqual({
      code: 'upstream_failed',
      message: 'Runway: Could not read [url]',
    });
    expect(observeRunwayTask({ status: 'FAILED', failureCode: 'bad code with spaces' }).error?.message).toBe(
      'Runway: Runway reported the task failed without a reason.',
    );
  });

  it('fails a success without a usable output URL', () => {
    for (const output of [undefined, [], ['javascript:alert(1)'], 'https://x/o.mp4']) {
      expect(observeRunwayTask({ status: 'SUCCEEDED', output })).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    }
  });
});
