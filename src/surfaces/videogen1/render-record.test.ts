import { describe, expect, it } from 'vitest';
import { VIDEO_RESULT, videoTask } from '../../../test/helpers/video-surface-stub.js';
import type { TaskNotifier } from '../../core/task.js';
import { renderVideogen1Accepted, renderVideogen1Task } from './render-record.js';
import { videogen1Surface } from './index.js';

/** The webhook notifier the surface gives the task engine. */
const videogen1TaskNotifier: TaskNotifier = (...args) => videogen1Surface.task?.notifier(...args);

const mediaUrl = (mediaId: string) => `https://cdn.gw/media/${mediaId}`;
const done = videoTask('videogen1', 'task_1', 'key-1', { status: 'succeeded', result: VIDEO_RESULT });

describe('renderVideogen1Task', () => {
  it('links to the base the task was created through unless another is given', () => {
    expect(renderVideogen1Task(done).data.video_url).toBe('http://gw.example/v1/videos/task_1/download');
    expect(renderVideogen1Task(done, 'https://other').data.video_url).toBe('https://other/v1/videos/task_1/download');
  });

  it('shows a failure without a message as a generic error', () => {
    expect(renderVideogen1Task({ ...done, status: 'failed', result: undefined }).data.error).toBe('the video generation failed');
  });

  it('renders the creation answer as pending whatever happened since', () => {
    expect(renderVideogen1Accepted(done)).toEqual({
      code: 0,
      message: 'success',
      data: { task_id: 'task_1', status: 'pending', created_at: '2026-01-02T03:04:05.000Z' },
    });
  });
});

describe('videogen1TaskNotifier', () => {
  it('sends the lookup answer on terminal states only', () => {
    for (const status of ['queued', 'submitted', 'running'] as const) expect(videogen1TaskNotifier({ ...done, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      const body = videogen1TaskNotifier({ ...done, status }, mediaUrl);
      expect(JSON.parse(body as string)).toEqual(renderVideogen1Task({ ...done, status }));
    }
  });
});
