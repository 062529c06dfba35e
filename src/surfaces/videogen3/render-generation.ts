/**
 * A task as videogen3 shows it, in the shape of a Luma generation: `{id, generation_type,
 * state, failure_reason, created_at, assets, model, request}`, ISO 8601 times. `assets.video`
 * is the gateway's download URL once completed. `request` echoes what was asked (keyframe
 * images are not kept, so not echoed). Needs no request object, so the engine's webhook
 * dispatcher renders it too.
 */
import type { Task } from '../../core/task.js';
import { finishedVideoUrl } from '../shared/video-download-url.js';
import { type Videogen3State, videogen3State } from './videogen3-state.js';

interface Videogen3Generation {
  id: string;
  generation_type: 'video';
  state: Videogen3State;
  failure_reason: string | null;
  created_at: string;
  assets: { video: string } | null;
  model: string;
  request: Record<string, unknown>;
}

/** `baseUrl`: the gateway base links start with (by default the one the task was created through). */
export function renderVideogen3Generation(task: Task, baseUrl = task.request.publicBaseUrl ?? ''): Videogen3Generation {
  const state = videogen3State(task.status);
  const video = finishedVideoUrl(task, baseUrl);
  return {
    id: task.id,
    generation_type: 'video',
    state,
    failure_reason: state === 'failed' ? task.error?.message || 'the generation failed' : null,
    created_at: new Date(task.createdAt).toISOString(),
    assets: video === null ? null : { video },
    model: task.model,
    request: requestOf(task),
  };
}

/** The creation answer (201): the generation as accepted, `queued` whatever happened since. */
export function renderVideogen3Accepted(task: Task, baseUrl?: string): Videogen3Generation {
  return renderVideogen3Generation({ ...task, status: 'queued', result: undefined, error: undefined }, baseUrl);
}

function requestOf(task: Task): Record<string, unknown> {
  const { prompt, aspectRatio, resolution, seconds, options } = task.request;
  const request: Record<string, unknown> = { generation_type: 'video', prompt: prompt ?? '', model: task.model };
  if (aspectRatio !== undefined) request.aspect_ratio = aspectRatio;
  if (resolution !== undefined) request.resolution = resolution;
  if (seconds !== undefined) request.duration = `${seconds}s`;
  if (typeof options?.loop === 'boolean') request.loop = options.loop;
  if (task.callback?.url !== undefined) request.callback_url = task.callback.url;
  return request;
}
