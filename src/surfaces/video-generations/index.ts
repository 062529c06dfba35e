/**
 * The `/v1/video/generations` surface (the spec's Ark-style video endpoint, Ark's content
 * generation tasks under the gateway's `/v1`): `POST` (answers `submitted`), `GET …/:id` and
 * `DELETE …/:id` (Ark's cancel). Errors in OpenAI's shape, as everything under `/v1` and as Ark's own.
 */
import { base32Id } from '../../core/ids.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { videoFamilySurface } from '../shared/video-family-surface.js';
import { parseVideoGenerationsCreate } from './parse-create-request.js';
import { renderVideoGenerationsAccepted, renderVideoGenerationsTask } from './render-record.js';

export const videoGenerationsSurface = videoFamilySurface({
  name: 'video-generations',
  newId: () => `task_${base32Id()}`,
  paths: { create: '/v1/video/generations', lookup: '/v1/video/generations/:id', cancel: '/v1/video/generations/:id' },
  // Where a field was written depends on the request's content list: the parser names them.
  parse: parseVideoGenerationsCreate,
  paramNames: () => undefined,
  accepted: { render: renderVideoGenerationsAccepted },
  render: renderVideoGenerationsTask,
  errors: { render: renderOpenAIError },
});
