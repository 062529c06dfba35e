import type { Operation } from './operation.js';

/** One model as list endpoints show it. */
export interface ModelInfo {
  id: string;
  operation: Operation;
  /** Who makes the model (`anthropic`, `openai`, `google`, `gengate`), for list responses. */
  ownedBy: string;
  created: number;
  displayName: string;
  /** Input/output token limits when known (Gemini's list shows them). */
  inputTokenLimit?: number;
  outputTokenLimit?: number;
}
