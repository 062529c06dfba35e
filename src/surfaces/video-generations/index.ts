/**
 * The `/v1/video/generations` surface (the spec's Ark-style video endpoint, Ark's content
 * generation tasks under the gateway's `/v1`): `POST` (answers `submitted`), `GET …/:id` and
 * `DELETE …/:id` (Ark's cancel). Errors in OpenAI's shape, as everything under `/v1` and as Ark's own.
 */
import { renderOpenAIError } from '../openai/render-error.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { videoFamily } from '../shared/video-family.js';
import { parseVideoGenerationsCreate } from './parse-create-request.js';
import { renderVideoGenerationsAccepted, renderVideoGenerationsTask } from './render-record.js';

export const videoGenerationsSurface = taskFamilySurface({
  ...videoFamily('video-generations'),
  // Where a field was written depends on the request's content list: the parser names them.
  create: { '/v1/video/generations': parseVideoGenerationsCreate },
  lookup: '/v1/video/generations/:id',
  cancel: { method: 'DELETE', path: '/v1/video/generations/:id' },
  accepted: { render: renderVideoGenerationsAccepted },
  render: renderVideoGenerationsTask,
  errors: { render: renderOpenAIError },
});
