/** A prediction answer read with a size cap and checked for what tracking it needs. */
import { GatewayError } from '../../core/errors.js';
import type { UpstreamResponse } from '../shared/upstream-http.js';
import type { Prediction } from './run-prediction.js';

/** Predictions carry their input and logs; image models' stay far below this. */
const MAX_PREDICTION_BYTES = 4 * 1024 * 1024;
/** Replicate ids are short base32 strings; anything else is not trusted into a URL path. */
const PREDICTION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export async function readPrediction(body: UpstreamResponse['body'], limit = MAX_PREDICTION_BYTES): Promise<Prediction> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      body.on('error', () => undefined);
      body.destroy();
      throw new GatewayError('upstream', `Replicate answered a prediction larger than ${limit} bytes`, { retryable: true });
    }
    chunks.push(buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new GatewayError('upstream', 'Replicate answered a prediction that is not JSON', { retryable: true });
  }
  const { id, status } = (parsed ?? {}) as Partial<Prediction>;
  if (typeof id !== 'string' || !PREDICTION_ID.test(id) || typeof status !== 'string') {
    throw new GatewayError('upstream', 'Replicate answered without a valid prediction id or status', { retryable: true });
  }
  return parsed as Prediction;
}
