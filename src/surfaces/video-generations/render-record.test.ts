import { describe, expect, it } from 'vitest';
import { VIDEO_RESULT, videoTask } from '../../../test/helpers/video-surface-stub.js';
import type { TaskNotifier } from '../../core/task.js';
import { renderVideoGenerationsTask } from './render-record.js';
import { videoGenerationsSurface } from './index.js';

/** The webhook notifier the surface gives the task engine. */
const videoGenerationsTaskNotifier: TaskNotifier = (...args) => videoGenerationsSurface.task?.notifier(...args);

const mediaUrl = (mediaId: string) => `https://cdn.gw/media/${mediaId}`;
const done = videoTask('video-generations', 'task_1', 'key-1', {
  request: { model: 'm', prompt: 'p', seconds: 5, resolution: '1080p', seed: 9, publicBaseUrl: 'https://gw.example' },
  status: 'succeeded',
  result: VIDEO_RESULT,
});

describe('renderVideoGenerationsTask', () => {
  it('echoes what was asked and links the download route of the task’s base', () => {
    expect(renderVideoGenerationsTask(done)).toMatchObject({
      content: { video_url: 'https://gw.example/v1/videos/task_1/download' },
      resolution: '1080p',
      seed: 9,
      duration: 5,
    });
  });

  it('shows no content nor usage before success, and a generic error for a failure without message', () => {
    const running = renderVideoGenerationsTask({ ...done, status: 'running' });
    expect(running.content).toBeUndefined();
    expect(running.usage).toBeUndefined();
    expect(renderVideoGenerationsTask({ ...done, status: 'failed' }).error).toEqual({ code: 'failed', message: 'the video generation failed' });
  });
});

describe('videoGenerationsTaskNotifier', () => {
  it('sends the lookup answer on terminal states only', () => {
    for (const status of ['queued', 'submitted', 'running'] as const) expect(videoGenerationsTaskNotifier({ ...done, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      expect(JSON.parse(videoGenerationsTaskNotifier({ ...done, status }, mediaUrl) as string)).toEqual(renderVideoGenerationsTask({ ...done, status }));
    }
  });
});
