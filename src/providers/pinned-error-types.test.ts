import { describe, expect, it } from 'vitest';
import { keptQuotaFull, storeFull } from '../media/media-quota-errors.js';
import { bflTaskError } from './bfl/map-bfl-error.js';
import { mjSubmitCodeError } from './midjourney-proxy/map-mj-submit-answer.js';
import { predictionError } from './replicate/map-replicate-error.js';

/** Errors raised inside an upstream attempt that are not the upstream answering with a status: their type is pinned where they are raised. */
describe('error types pinned where the kind’s default would be wrong', () => {
  it('keeps a media quota met while an answer is stored the policy’s, not an upstream rate limit', () => {
    for (const quota of [keptQuotaFull(10, 5), storeFull(10, 5)]) {
      quota.classifyAsUpstream();
      expect(quota.errorType).toBe('policy.budget');
    }
  });

  it('types an upstream’s refusal answered without an error status as the upstream refusing, not a malformed client request', () => {
    const refusals = [
      mjSubmitCodeError(24, 'banned'),
      mjSubmitCodeError(4, 'bad'),
      mjSubmitCodeError(3, 'gone'),
      bflTaskError('Request Moderated', undefined),
      bflTaskError('Content Moderated', undefined),
      predictionError('failed', 'NSFW content detected'),
    ];
    for (const refusal of refusals) {
      refusal.classifyAsUpstream();
      expect(refusal.errorType, refusal.message).toBe('upstream.refused');
    }
    // Its own failure stays the upstream's failure.
    const failed = bflTaskError('Error', undefined);
    failed.classifyAsUpstream();
    expect(failed.errorType).toBe('upstream.server_error');
  });
});
