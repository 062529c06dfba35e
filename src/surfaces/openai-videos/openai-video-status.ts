/**
 * The canonical task status in OpenAI's video words: `queued` until the model runs, then
 * `in_progress`, `completed` or `failed`. A canceled task is `failed` (its error says why).
 */
import { statusWords } from '../shared/status-words.js';

export const openaiVideoStatus = statusWords({ queued: 'queued', running: 'in_progress', succeeded: 'completed', failed: 'failed' });

export type OpenAIVideoStatus = ReturnType<typeof openaiVideoStatus>;
