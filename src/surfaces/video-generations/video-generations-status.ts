/**
 * The canonical task status in the words of `/v1/video/generations` (the design's choice for
 * the spec's unshown lookup): `submitted` until the model runs, then `processing`, `succeeded`
 * or `failed`. A canceled task is `failed`, its error code `canceled`.
 */
import { statusWords } from '../shared/status-words.js';

export const videoGenerationsStatus = statusWords({ queued: 'submitted', running: 'processing', succeeded: 'succeeded', failed: 'failed' });

export type VideoGenerationsStatus = ReturnType<typeof videoGenerationsStatus>;
