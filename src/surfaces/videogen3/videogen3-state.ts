/**
 * The canonical task status in videogen3's words, Luma's generation states: `queued` until the
 * model runs, `dreaming` while it does, then `completed` or `failed`. A canceled task is
 * `failed` (its `failure_reason` says it was canceled).
 */
import { statusWords } from '../shared/status-words.js';

export const videogen3State = statusWords({ queued: 'queued', running: 'dreaming', succeeded: 'completed', failed: 'failed' });

export type Videogen3State = ReturnType<typeof videogen3State>;
