/**
 * The canonical task status in videogen2's words: `submitted` until the model runs, then
 * `processing`, `succeeded` or `failed`. A canceled task is `failed` (its error says why).
 */
import { statusWords } from '../shared/status-words.js';

export const videogen2Status = statusWords({ queued: 'submitted', running: 'processing', succeeded: 'succeeded', failed: 'failed' });

export type Videogen2Status = ReturnType<typeof videogen2Status>;
