import { describe, expect, it } from 'vitest';
import { T0, VIDEO_RESULT, videoTask } from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { openaiVideoStatus } from './openai-video-status.js';
import { renderOpenAIVideo } from './render-video.js';
import { renderOpenAIVideoList } from './render-video-list.js';
import { openaiVideosTaskNotifier } from './task-notifier.js';

const running = videoTask('openai-videos', 'video_1', 'key-1', {
  model: 'm',
  request: { model: 'm', prompt: 'p', seconds: 8, width: 720, height: 1280, aspectRatio: '9:16', resolution: '720p' },
  status: 'running',
  progress: 0.5,
});
const done = { ...running, status: 'succeeded' as const, progress: 1, result: VIDEO_RESULT, finishedAt: T0 + 90_500 };

describe('openaiVideoStatus', () => {
  it('maps every canonical status', () => {
    for (const [status, word] of wordsByStatus('queued queued in_progress completed failed failed')) expect(openaiVideoStatus(status)).toBe(word);
  });
});

describe('renderOpenAIVideo', () => {
  it('renders a running task with the asked size and seconds', () => {
    expect(renderOpenAIVideo(running, T0 + 10_000_000)).toEqual({
      id: 'video_1',
      object: 'video',
      model: 'm',
      status: 'in_progress',
      progress: 50,
      created_at: Math.floor(T0 / 1000),
      completed_at: null,
      expires_at: null,
      prompt: 'p',
      size: '720x1280',
      seconds: '8',
      error: null,
      remixed_from_video_id: null,
    });
  });

  it('renders a completed task with the measured length, its finish and expiry times', () => {
    expect(renderOpenAIVideo(done, T0 + 3_600_999)).toMatchObject({
      status: 'completed',
      progress: 100,
      seconds: '5',
      size: '720x1280',
      completed_at: Math.floor((T0 + 90_500) / 1000),
      expires_at: Math.floor((T0 + 3_600_999) / 1000),
    });
    const measured = { ...done, result: { media: [{ ...VIDEO_RESULT.media[0], width: 1920, height: 1080 }] } };
    expect(renderOpenAIVideo(measured).size).toBe('1920x1080');
  });

  it('renders unknown size and length as null, and clamps progress', () => {
    const bare = videoTask('videogen3', 'task_1', 'key-1', { request: { model: 'm' }, progress: 1.7 });
    expect(renderOpenAIVideo(bare)).toMatchObject({ status: 'queued', progress: 100, size: null, seconds: null, prompt: null });
  });

  it('gives a failed or canceled task an error object, with a message even when the task has none', () => {
    expect(renderOpenAIVideo({ ...running, status: 'failed', error: { code: 'timeout', message: 'the model took too long' } }).error).toEqual({
      code: 'timeout',
      message: 'the model took too long',
    });
    expect(renderOpenAIVideo({ ...running, status: 'canceled', finishedAt: T0 + 5_000 })).toMatchObject({
      status: 'failed',
      completed_at: Math.floor((T0 + 5_000) / 1000),
      error: { code: 'canceled', message: 'the video generation was canceled' },
    });
  });
});

describe('renderOpenAIVideoList', () => {
  it('names the first and last ids', () => {
    const videos = [renderOpenAIVideo(running), renderOpenAIVideo({ ...running, id: 'video_2' })];
    expect(renderOpenAIVideoList(videos, true)).toMatchObject({ object: 'list', first_id: 'video_1', last_id: 'video_2', has_more: true });
  });
});

describe('openaiVideosTaskNotifier', () => {
  it('sends the Video object on terminal states only', () => {
    const mediaUrl = (id: string) => `https://gw/media/${id}`;
    for (const status of ['queued', 'submitted', 'running'] as const) expect(openaiVideosTaskNotifier({ ...running, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      expect(JSON.parse(openaiVideosTaskNotifier({ ...done, status }, mediaUrl) as string)).toEqual(renderOpenAIVideo({ ...done, status }));
    }
  });
});
