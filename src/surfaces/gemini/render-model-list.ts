/** The gateway's models in Gemini's `models.list` / `models.get` shape. */
import type { ModelInfo } from '../../core/model-info.js';

interface GeminiModel {
  name: string;
  version: string;
  displayName: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods: string[];
}

const METHODS: Partial<Record<ModelInfo['operation'], string[]>> = {
  chat: ['generateContent', 'streamGenerateContent', 'countTokens'],
  embed: ['embedContent', 'batchEmbedContents'],
};

/** Whether the Gemini surface can serve the model at all (chat and embedding models). */
export function isGeminiServable(model: ModelInfo): boolean {
  return METHODS[model.operation] !== undefined;
}

export function renderGeminiModel(model: ModelInfo): GeminiModel {
  const rendered: GeminiModel = {
    name: `models/${model.id}`,
    // The catalog has no model versions; Google's first release of a model is "001".
    version: '001',
    displayName: model.displayName,
    supportedGenerationMethods: [...(METHODS[model.operation] ?? [])],
  };
  // Proto3 JSON leaves unknown (zero) limits out.
  if (model.inputTokenLimit !== undefined) rendered.inputTokenLimit = model.inputTokenLimit;
  if (model.outputTokenLimit !== undefined) rendered.outputTokenLimit = model.outputTokenLimit;
  return rendered;
}

/** Lists the chat and embedding models; image and video models have no Gemini method here. */
export function renderGeminiModelList(models: ModelInfo[]): { models: GeminiModel[] } {
  return { models: models.filter(isGeminiServable).map(renderGeminiModel) };
}
