import { describe, expect, it } from 'vitest';
import type { Task } from '../../core/task.js';
import { finishedVideoUrl, videoDownloadUrl, videoSeconds } from './video-download-url.js';

const task: Task = {
  id: 'task_abc',
  owner: 'key-1',
  surface: 'videogen1',
  operation: 'video.generate',
  model: 'videogen1-video-01',
  request: { model: 'videogen1-video-01', prompt: 'waves', seconds: 6 },
  status: 'succeeded',
  progress: 1,
  result: {
    media: [
      { mediaId: 'v1.mp4', kind: 'video', mime: 'video/mp4', bytes: 100 },
      { mediaId: 't1.jpg', kind: 'image', mime: 'image/jpeg', bytes: 10 },
    ],
  },
  priceNusd: 300_000_000,
  createdAt: 0,
  updatedAt: 0,
};

describe('video download URL', () => {
  it('points at the gateway’s download route, never the vendor', () => {
    expect(videoDownloadUrl('https://gw.example', 'task_abc')).toBe('https://gw.example/v1/videos/task_abc/download');
    expect(finishedVideoUrl(task, 'http://h:8080')).toBe('http://h:8080/v1/videos/task_abc/download');
  });

  it('is null before success and for a task without a video', () => {
    expect(finishedVideoUrl({ ...task, status: 'running' }, 'http://h')).toBeNull();
    expect(finishedVideoUrl({ ...task, result: { media: [] } }, 'http://h')).toBeNull();
  });

  it('reports the measured length when known, else the seconds asked for', () => {
    expect(videoSeconds({ ...task, request: { ...task.request, seconds: 5 } })).toBe(5);
    const measured = { ...task, result: { media: [{ mediaId: 'v1.mp4', kind: 'video' as const, mime: 'video/mp4', bytes: 1, seconds: 5.6 }] } };
    expect(videoSeconds(measured)).toBe(6);
    expect(videoSeconds({ ...task, request: { model: 'm' }, result: undefined })).toBeNull();
  });
});
