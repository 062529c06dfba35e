/**
 * The model actions the surface serves, by the name after the colon in
 * `…/models/{model}:{action}`. A new action (embedContent, …) is one more entry.
 */
import type { GeminiActionHandler } from './gemini-action.js';
import { handleBatchEmbedContents } from './handle-batch-embed-contents.js';
import { handleCountTokens } from './handle-count-tokens.js';
import { handleEmbedContent } from './handle-embed-content.js';
import { handleGenerateContent, handleStreamGenerateContent } from './handle-generate-content.js';

export const geminiActions: Record<string, GeminiActionHandler> = {
  generateContent: handleGenerateContent,
  streamGenerateContent: handleStreamGenerateContent,
  countTokens: handleCountTokens,
  embedContent: handleEmbedContent,
  batchEmbedContents: handleBatchEmbedContents,
};
