/**
 * A Luma generation as the task engine sees it: every documented state mapped (queued →
 * submitted, dreaming → running, completed → succeeded with its video, failed → failed with
 * Luma's reason), anything else `unknown`.
 */
import type { TaskObservation } from '../../core/task.js';
import { cleanVendorText } from '../shared/clean-vendor-text.js';

export interface LumaGeneration {
  id?: unknown;
  state?: unknown;
  failure_reason?: unknown;
  assets?: { video?: unknown } | null;
}

const STATUS: Record<string, TaskObservation['status']> = {
  queued: 'submitted',
  dreaming: 'running',
  completed: 'succeeded',
  failed: 'failed',
};

/** Failure reasons that mean the prompt or an image broke Luma's content rules. */
const CONTENT_POLICY = /moderat|content polic|safety|nsfw|inappropriate|not allowed|violat/i;
const MAX_VENDOR_STATUS_CHARS = 64;
const MAX_URL_CHARS = 2_048;

export function observeLumaGeneration(generation: LumaGeneration, secrets: readonly string[] = []): TaskObservation {
  const state = typeof generation.state === 'string' ? generation.state : '';
  const vendorStatus = state.slice(0, MAX_VENDOR_STATUS_CHARS);
  const status = Object.hasOwn(STATUS, state) ? STATUS[state] : 'unknown';
  if (status === 'succeeded') {
    const video = generation.assets?.video;
    if (typeof video !== 'string' || video.length > MAX_URL_CHARS || !/^https?:\/\//i.test(video)) {
      return { status: 'failed', vendorStatus, error: { code: 'upstream_failed', message: 'Luma reported the generation completed without a video URL.' } };
    }
    return { status, vendorStatus, progress: 1, outputs: [{ url: video, kind: 'video' }] };
  }
  if (status === 'failed') {
    const reason = cleanVendorText(generation.failure_reason, secrets);
    return {
      status,
      vendorStatus,
      error: {
        code: CONTENT_POLICY.test(reason) ? 'content_policy' : 'upstream_failed',
        message: reason ? `Luma: ${reason}` : 'Luma reported the generation failed without a reason.',
      },
    };
  }
  return { status, vendorStatus };
}
