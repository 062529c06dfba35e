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

/** The wire dialects the gateway speaks; a provider whose dialect matches a surface's can pass through. */
export type Dialect = 'openai' | 'anthropic' | 'gemini';
