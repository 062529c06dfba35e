/**
 * The canonical task status in videogen1's words: `pending` until the model runs, then
 * `processing`, `succeeded` or `failed`. videogen1 has no word for canceled; a canceled task
 * is `failed` (its error says it was canceled).
 */
import { statusWords } from '../shared/status-words.js';

export const videogen1Status = statusWords({ queued: 'pending', running: 'processing', succeeded: 'succeeded', failed: 'failed' });

export type Videogen1Status = ReturnType<typeof videogen1Status>;
