/** Task rows ↔ the canonical `Task`: JSON columns parsed, nulls turned into absent fields. */
import type { Selectable } from 'kysely';
import { type ErrorType, isErrorType } from '../core/error-type.js';
import type { StoredTaskRequest, Task, TaskOperation, TaskResult, TaskStatus, TaskSurface } from '../core/task.js';
import type { TasksTable } from './schema.js';

type TaskRow = Selectable<TasksTable>;

/** A task as the engine works on it: the canonical task plus where and how it is polled. */
export interface StoredTask extends Task {
  /** The account of the key that submitted it (null: an operator key or the master key). */
  accountId: string | null;
  upstreamData?: Record<string, unknown>;
  callbackToken: string;
  deadlineAt: number;
  nextPollAt: number;
  pollCount: number;
  leaseOwner?: string;
  leaseUntil: number;
  version: number;
  /** Whose fault the failure was, for a task that failed (`core/error-type.ts`). */
  errorType?: ErrorType;
}

function parseJson<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

const present = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function taskFromRow(row: TaskRow): StoredTask {
  return {
    id: row.id,
    owner: row.owner,
    surface: row.surface as TaskSurface,
    operation: row.operation as TaskOperation,
    model: row.model,
    request: JSON.parse(row.request) as StoredTaskRequest,
    parentId: present(row.parent_id),
    channel: present(row.channel),
    provider: present(row.provider),
    upstreamModel: present(row.upstream_model),
    upstreamId: present(row.upstream_id),
    upstreamData: parseJson<Record<string, unknown>>(row.upstream_data),
    status: row.status as TaskStatus,
    vendorStatus: present(row.vendor_status),
    progress: row.progress,
    result: parseJson<TaskResult>(row.result),
    error: row.error_code === null ? undefined : { code: row.error_code, message: row.error_message ?? '' },
    priceNusd: Number(row.price_nusd),
    callback: row.callback_url === null ? undefined : { url: row.callback_url, state: present(row.callback_state) },
    createdAt: row.created_at,
    submittedAt: present(row.submitted_at),
    startedAt: present(row.started_at),
    finishedAt: present(row.finished_at),
    updatedAt: row.updated_at,
    callbackToken: row.callback_token,
    deadlineAt: row.deadline_at,
    nextPollAt: row.next_poll_at,
    pollCount: row.poll_count,
    leaseOwner: present(row.lease_owner),
    leaseUntil: row.lease_until,
    version: row.version,
    accountId: row.account_id ?? null,
    ...(isErrorType(row.error_type) ? { errorType: row.error_type } : {}),
  };
}
