/** The canonical embed operation. */

export type EmbedTaskType =
  | 'RETRIEVAL_QUERY'
  | 'RETRIEVAL_DOCUMENT'
  | 'SEMANTIC_SIMILARITY'
  | 'CLASSIFICATION'
  | 'CLUSTERING'
  | 'QUESTION_ANSWERING'
  | 'FACT_VERIFICATION'
  | 'CODE_RETRIEVAL_QUERY';

export interface EmbedRequest {
  /** The public model id. */
  model: string;
  /** One text per vector wanted, in order. */
  inputs: string[];
  taskType?: EmbedTaskType;
  /** Document title (Gemini, only with RETRIEVAL_DOCUMENT). */
  title?: string;
  /** Requested vector length (OpenAI `dimensions`, Gemini `outputDimensionality`). */
  dimensions?: number;
  /** An end-user id for abuse tracking. */
  user?: string;
}

export interface EmbedResponse {
  model: string;
  /** One vector per input, in input order. */
  embeddings: number[][];
  usage: { inputTokens: number };
}
