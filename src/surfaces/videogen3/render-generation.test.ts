import { describe, expect, it } from 'vitest';
import { VIDEO_RESULT, videoTask } from '../../../test/helpers/video-surface-stub.js';
import type { TaskNotifier } from '../../core/task.js';
import { renderVideogen3Accepted, renderVideogen3Generation } from './render-generation.js';
import { videogen3Surface } from './index.js';

/** The webhook notifier the surface gives the task engine. */
const videogen3TaskNotifier: TaskNotifier = (...args) => videogen3Surface.task?.notifier(...args);

const mediaUrl = (mediaId: string) => `https://cdn.gw/media/${mediaId}`;
const done = videoTask('videogen3', 'task_1', 'key-1', { model: 'videogen3-ray-2', status: 'succeeded', result: VIDEO_RESULT });

describe('renderVideogen3Generation', () => {
  it('links the download route of the task’s base, and a generic reason for a failure without message', () => {
    expect(renderVideogen3Generation(done).assets).toEqual({ video: 'http://gw.example/v1/videos/task_1/download' });
    expect(renderVideogen3Generation({ ...done, status: 'failed', result: undefined }).failure_reason).toBe('the generation failed');
  });

  it('renders the creation answer as queued without assets whatever happened since', () => {
    expect(renderVideogen3Accepted(done)).toMatchObject({ state: 'queued', assets: null, failure_reason: null });
  });
});

describe('videogen3TaskNotifier', () => {
  it('sends the generation on terminal states only', () => {
    for (const status of ['queued', 'submitted', 'running'] as const) expect(videogen3TaskNotifier({ ...done, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      expect(JSON.parse(videogen3TaskNotifier({ ...done, status }, mediaUrl) as string)).toEqual(renderVideogen3Generation({ ...done, status }));
    }
  });
});
