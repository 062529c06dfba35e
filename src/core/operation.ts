/** What is asked, independent of dialect. */
export type Operation =
  | 'chat'
  | 'embed'
  | 'image.generate'
  | 'image.edit'
  | 'image.remix'
  | 'image.blend'
  | 'image.imagine'
  | 'image.describe'
  | 'image.action'
  | 'video.generate'
  | 'task.get';

/**
 * The wire dialects the gateway speaks; a provider whose dialect matches a surface's can pass
 * through. `openai` is Chat Completions; `responses` is OpenAI's Responses API, which only
 * OpenAI itself serves (`ProviderDescriptor.alsoRelays`).
 */
export type Dialect = 'openai' | 'responses' | 'anthropic' | 'gemini';
