import { describe, expect, it } from 'vitest';
import type { Task, TaskNotifier } from '../../core/task.js';
import { imagegen1Surface } from './index.js';
import { renderAcceptedRecord, renderImagegen1Record } from './render-record.js';

const imagegen1TaskNotifier: TaskNotifier = (...args) => imagegen1Surface.task?.notifier(...args);

const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);
const mediaUrl = (mediaId: string) => `https://cdn.gw/media/${mediaId}`;

const task: Task = {
  id: 'abc234',
  owner: 'key-1',
  surface: 'imagegen1',
  operation: 'image.generate',
  model: 'acme/painter',
  request: { model: 'acme/painter', prompt: 'hills', count: 1, options: { aspect_ratio: '16:9' }, publicBaseUrl: 'https://gw.example' },
  status: 'succeeded',
  progress: 1,
  result: { media: [{ mediaId: 'r1.png', kind: 'image', mime: 'image/png', bytes: 3 }] },
  priceNusd: 10_000_000,
  createdAt: T0,
  submittedAt: T0 + 200,
  finishedAt: T0 + 1_450,
  updatedAt: T0 + 1_450,
};

describe('renderImagegen1Record', () => {
  it('links to the base the task was created through unless another is given', () => {
    expect(renderImagegen1Record(task, mediaUrl).urls).toEqual({
      get: 'https://gw.example/imagegen1/task/abc234',
      cancel: 'https://gw.example/imagegen1/task/abc234/cancel',
    });
    expect(renderImagegen1Record(task, mediaUrl, 'http://other:8080').urls.get).toBe('http://other:8080/imagegen1/task/abc234');
  });

  it('measures predict_time from submission when the start was never seen', () => {
    const record = renderImagegen1Record(task, mediaUrl);
    expect(record).toMatchObject({ output: ['https://cdn.gw/media/r1.png'], started_at: null, metrics: { predict_time: 1.25 } });
    expect(record.input).toEqual({ aspect_ratio: '16:9', prompt: 'hills', num_outputs: 1 });
  });

  it('shows a failure without its message as a generic error', () => {
    expect(renderImagegen1Record({ ...task, status: 'failed', result: undefined }, mediaUrl).error).toBe('the prediction failed');
  });

  it('renders the creation answer as pending, without results, whatever happened since', () => {
    expect(renderAcceptedRecord(task, mediaUrl)).toMatchObject({ status: 'pending', output: null, error: null, completed_at: null, metrics: {} });
  });
});

describe('imagegen1TaskNotifier', () => {
  it('sends the lookup record on terminal states only', () => {
    for (const status of ['queued', 'submitted', 'running'] as const) expect(imagegen1TaskNotifier({ ...task, status }, mediaUrl)).toBeUndefined();
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      const body = imagegen1TaskNotifier({ ...task, status }, mediaUrl);
      expect(JSON.parse(body as string)).toEqual(JSON.parse(JSON.stringify(renderImagegen1Record({ ...task, status }, mediaUrl))));
    }
  });
});
