import { describe, expect, it } from 'vitest';
import { VIDEO_RESULT, videoTask } from '../../../test/helpers/video-surface-stub.js';
import type { TaskNotifier } from '../../core/task.js';
import { renderVideogen2Accepted, renderVideogen2Task } from './render-record.js';
import { videogen2Surface } from './index.js';

/** The webhook notifier the surface gives the task engine. */
const videogen2TaskNotifier: TaskNotifier = (...args) => videogen2Surface.task?.notifier(...args);

const mediaUrl = (mediaId: string) => `https://cdn.gw/media/${mediaId}`;
const done = videoTask('videogen2', 'task_1', 'key-1', { status: 'succeeded', result: VIDEO_RESULT });

describe('renderVideogen2Task', () => {
  it('links to the base the task was created through, and shows no resolution when none was asked', () => {
    expect(renderVideogen2Task(done)).toMatchObject({ video_url: 'http://gw.example/v1/videos/task_1/download', resolution: null, duration: 5 });
  });

  it('renders the creation answer as submitted whatever happened since', () => {
    expect(renderVideogen2Accepted(done)).toEqual({ id: 'task_1', status: 'submitted', created_at: '2026-01-02T03:04:05.000Z' });
  });
});

describe('videogen2TaskNotifier', () => {
  it('sends the lookup answer on terminal states only', () => {
    for (const status of ['queued', 'submitted', 'running'] as const) expect(videogen2TaskNotifier({ ...done, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      expect(JSON.parse(videogen2TaskNotifier({ ...done, status }, mediaUrl) as string)).toEqual(renderVideogen2Task({ ...done, status }));
    }
  });
});
