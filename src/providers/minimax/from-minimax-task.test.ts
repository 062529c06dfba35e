import { describe, expect, it } from 'vitest';
import { fromMinimaxTask } from './from-minimax-task.js';
import { mapMinimaxStatus } from './map-minimax-status.js';

const OK = { status_code: 0, status_msg: 'success' };

describe('mapMinimaxStatus', () => {
  it('maps every MiniMax state, and anything else to unknown', () => {
    expect(['Preparing', 'Queueing', 'Processing', 'Success', 'Fail', 'Paused', undefined].map(mapMinimaxStatus)).toEqual([
      'submitted',
      'submitted',
      'running',
      'succeeded',
      'failed',
      'unknown',
      'unknown',
    ]);
  });
});

describe('fromMinimaxTask', () => {
  it('reports progress states with the vendor word', () => {
    expect(fromMinimaxTask({ task_id: '7', status: 'Queueing', base_resp: OK }, '7', [])).toEqual({
      observation: { status: 'submitted', vendorStatus: 'Queueing' },
    });
    expect(fromMinimaxTask({ task_id: '7', status: 'Processing', base_resp: OK }, '7', [])).toEqual({
      observation: { status: 'running', vendorStatus: 'Processing' },
    });
    expect(fromMinimaxTask({ task_id: '7', status: 'Rendering', base_resp: OK }, '7', [])).toEqual({
      observation: { status: 'unknown', vendorStatus: 'Rendering' },
    });
  });

  it('names the file of a finished task (a number or a string id)', () => {
    expect(fromMinimaxTask({ task_id: '7', status: 'Success', file_id: 205258526306433, base_resp: OK }, '7', [])).toEqual({
      observation: { status: 'succeeded', vendorStatus: 'Success' },
      fileId: '205258526306433',
    });
    expect(() => fromMinimaxTask({ task_id: '7', status: 'Success', base_resp: OK }, '7', [])).toThrow(/names no result file/);
  });

  it("keeps MiniMax's failure reason, as content_policy for sensitive content", () => {
    expect(fromMinimaxTask({ task_id: '7', status: 'Fail', base_resp: { status_code: 1027, status_msg: 'output video sensitive' } }, '7', [])).toEqual({
      observation: { status: 'failed', vendorStatus: 'Fail', error: { code: 'content_policy', message: 'MiniMax: output video sensitive' } },
    });
    expect(fromMinimaxTask({ task_id: '7', status: 'Fail', base_resp: OK, error_message: 'render crashed' }, '7', []).observation.error).toEqual({
      code: 'upstream_failed',
      message: 'MiniMax: render crashed',
    });
    expect(fromMinimaxTask({ task_id: '7', status: 'Fail', base_resp: OK }, '7', []).observation.error!.message).toBe(
      'MiniMax reports the task failed without giving a reason.',
    );
  });

  it('throws what a refused query means, and refuses an answer about another task', () => {
    expect(() => fromMinimaxTask({ base_resp: { status_code: 1002, status_msg: 'rate limit' } }, '7', [])).toThrow(
      expect.objectContaining({ kind: 'rate_limit' }),
    );
    expect(() => fromMinimaxTask({ task_id: '8', status: 'Processing', base_resp: OK }, '7', [])).toThrow(/another task/);
  });
});
