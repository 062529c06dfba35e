/** Gemini `embedContent` / `batchEmbedContents` wire shapes (as emitted: camelCase). */
import type { EmbedTaskType } from '../embed.js';
import type { GeminiContent } from './gemini-types.js';

export const GEMINI_TASK_TYPES: readonly EmbedTaskType[] = [
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
];

export interface GeminiEmbedContentRequest {
  /** `models/<model>`; required inside a batch. */
  model?: string;
  content: GeminiContent;
  taskType?: EmbedTaskType;
  title?: string;
  outputDimensionality?: number;
}

export interface GeminiBatchEmbedContentsRequest {
  requests: GeminiEmbedContentRequest[];
}

interface GeminiContentEmbedding {
  values: number[];
}

export interface GeminiEmbedContentResponse {
  embedding: GeminiContentEmbedding;
}

export interface GeminiBatchEmbedContentsResponse {
  embeddings: GeminiContentEmbedding[];
}

/** The Gemini API takes at most this many requests in one batch. */
export const GEMINI_MAX_BATCH_EMBED_REQUESTS = 100;
