/**
 * A Runway task as the task engine sees it: every documented status mapped (PENDING and
 * THROTTLED → submitted, RUNNING → running with its progress, SUCCEEDED → its video, FAILED →
 * failed with Runway's reason and code, CANCELLED → canceled), anything else `unknown`.
 */
import type { TaskObservation } from '../../core/task.js';
import { cleanVendorText } from '../shared/clean-vendor-text.js';

export interface RunwayTask {
  id?: unknown;
  status?: unknown;
  progress?: unknown;
  output?: unknown;
  failure?: unknown;
  failureCode?: unknown;
}

const STATUS: Record<string, TaskObservation['status']> = {
  PENDING: 'submitted',
  // Runway holds the task back for the account's concurrency limit: still waiting, not failed.
  THROTTLED: 'submitted',
  RUNNING: 'running',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'canceled',
};

const MAX_VENDOR_STATUS_CHARS = 64;
const MAX_URL_CHARS = 2_048;
const FAILURE_CODE = /^[A-Za-z0-9_.:-]{1,100}$/;

export function observeRunwayTask(task: RunwayTask, secrets: readonly string[] = []): TaskObservation {
  const raw = typeof task.status === 'string' ? task.status : '';
  const vendorStatus = raw.slice(0, MAX_VENDOR_STATUS_CHARS);
  const status = Object.hasOwn(STATUS, raw) ? STATUS[raw] : 'unknown';
  switch (status) {
    case 'succeeded': {
      const url = Array.isArray(task.output) ? task.output[0] : undefined;
      if (typeof url !== 'string' || url.length > MAX_URL_CHARS || !/^https?:\/\//i.test(url)) {
        return { status: 'failed', vendorStatus, error: { code: 'upstream_failed', message: 'Runway reported the task succeeded without a video URL.' } };
      }
      return { status, vendorStatus, progress: 1, outputs: [{ url, kind: 'video' }] };
    }
    case 'failed':
      return { status, vendorStatus, error: failure(task, secrets) };
    case 'canceled':
      return { status, vendorStatus, error: { code: 'upstream_canceled', message: 'Runway reports the task was cancelled.' } };
    case 'running': {
      const progress = task.progress;
      return typeof progress === 'number' && Number.isFinite(progress)
        ? { status, vendorStatus, progress: Math.min(1, Math.max(0, progress)) }
        : { status, vendorStatus };
    }
    default:
      return { status, vendorStatus };
  }
}

/** Runway's failure text with its machine code; `SAFETY…` codes are content-policy refusals. */
function failure(task: RunwayTask, secrets: readonly string[]): { code: string; message: string } {
  const reason = cleanVendorText(task.failure, secrets);
  const failureCode = typeof task.failureCode === 'string' && FAILURE_CODE.test(task.failureCode) ? task.failureCode : undefined;
  const safety = failureCode !== undefined && /(^|\.)SAFETY(\.|$)/i.test(failureCode);
  const text = reason || 'Runway reported the task failed without a reason.';
  return { code: safety ? 'content_policy' : 'upstream_failed', message: `Runway: ${text}${failureCode ? ` (${failureCode})` : ''}` };
}
