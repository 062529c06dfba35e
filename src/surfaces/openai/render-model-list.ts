/** The model list in OpenAI's shape (`GET /v1/models`, `GET /v1/models/{id}`). */
import type { ModelInfo } from '../../core/model-info.js';

interface OpenAIModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export function renderOpenAIModel(model: ModelInfo): OpenAIModel {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy };
}

export function renderOpenAIModelList(models: ModelInfo[]): { object: 'list'; data: OpenAIModel[] } {
  return { object: 'list', data: models.map(renderOpenAIModel) };
}
