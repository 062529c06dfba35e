/**
 * The canonical task status in imagegen1's words. Replicate says `starting` for a prediction
 * not yet running; the spec's creation answer says `pending`, so that word stands for every
 * state before the model runs.
 */
import { statusWords } from '../shared/status-words.js';

export const imagegen1Status = statusWords({ queued: 'pending', running: 'processing', succeeded: 'succeeded', failed: 'failed', canceled: 'canceled' });

export type Imagegen1Status = ReturnType<typeof imagegen1Status>;
