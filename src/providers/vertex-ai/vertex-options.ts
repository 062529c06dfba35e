/** Vertex AI's channel options, as descriptor data (plain, so config validation loads no adapter). */
import type { ChannelOptionSpec } from '../types.js';

/** Region names as Google writes them (`us-central1`, `europe-west4`), the multi-regions and `global`. */
export const VERTEX_LOCATION = /^(global|us|eu|[a-z]+-[a-z]+\d{1,2})$/;
export const GOOGLE_PROJECT_ID = /^[a-z][a-z0-9-]{4,61}[a-z0-9]$/;

export const VERTEX_CHANNEL_OPTIONS: Readonly<Record<string, ChannelOptionSpec>> = {
  project: { type: 'string', pattern: GOOGLE_PROJECT_ID, expected: 'a Google Cloud project id' },
  location: { type: 'string', pattern: VERTEX_LOCATION, expected: 'a Vertex AI region (us-central1) or global' },
  embedBatchSize: { type: 'integer', expected: 'a whole number of inputs' },
};
