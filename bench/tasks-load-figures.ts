/**
 * The figures of a task-engine load run, computed from the task rows once every task ended:
 * observations the poller made, row writes the engine caused, and how late each task was
 * marked finished after the sandbox's planned end.
 */
import { pollDelay } from '../src/tasks/poll-delay.js';
import type { TaskPollPolicy } from '../src/providers/types.js';

/** What the run reads of each task row at the end. */
export interface EndedTask {
  status: string;
  createdAt: number;
  pollCount: number;
  finishedAt: number | null;
  /** The sandbox's record (JSON): `startedAt` + `totalMs` is when the task is planned to end. */
  upstreamData: string | null;
  submitted: boolean;
}

/** Rows in the tables the engine writes besides `tasks`. */
export interface OtherRows {
  ledger: number;
  usage: number;
  webhooks: number;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

/** When the sandbox planned the task to end, or undefined for a row without its record. */
export function plannedEnd(upstreamData: string | null): number | undefined {
  if (upstreamData === null) return undefined;
  const record = JSON.parse(upstreamData) as { startedAt?: unknown; totalMs?: unknown };
  return typeof record.startedAt === 'number' && typeof record.totalMs === 'number' ? record.startedAt + record.totalMs : undefined;
}

/** Milliseconds between each ended task's planned end and the moment the engine wrote it finished. */
export function lateness(tasks: readonly EndedTask[]): number[] {
  const out: number[] = [];
  for (const task of tasks) {
    const planned = plannedEnd(task.upstreamData);
    if (task.finishedAt !== null && planned !== undefined) out.push(task.finishedAt - planned);
  }
  return out;
}

/**
 * Polls the engine made (task observations, single or inside a batch): `poll_count` counts every
 * poll that left the task unfinished; the poll that finished it is not counted there.
 */
export function observations(tasks: readonly EndedTask[]): number {
  let total = 0;
  for (const task of tasks) total += task.pollCount + (TERMINAL.has(task.status) && task.submitted ? 1 : 0);
  return total;
}

/** Mean time between two polls of one task: the tasks' lifetimes (submit to end) over the polls they got. */
export function meanPollIntervalMs(tasks: readonly EndedTask[]): number {
  let lifetimes = 0;
  for (const task of tasks) if (task.finishedAt !== null && task.submitted) lifetimes += task.finishedAt - task.createdAt;
  const polls = observations(tasks);
  return polls === 0 ? Number.NaN : lifetimes / polls;
}

export interface RowWrites {
  inserted: number;
  updated: number;
  total: number;
}

/**
 * Row writes the engine made for these tasks, from what each step writes: a task row and its
 * reserve inserted at submit, one update when the upstream accepted it, per poll one update
 * taking the lease and one giving it back (progress or next poll time), one terminal update,
 * plus the ledger, usage and webhook rows counted in their tables.
 */
export function rowWrites(tasks: readonly EndedTask[], other: OtherRows): RowWrites {
  const polls = observations(tasks);
  const unfinishedPolls = tasks.reduce((sum, task) => sum + task.pollCount, 0);
  const accepted = tasks.filter((task) => task.submitted).length;
  const ended = tasks.filter((task) => TERMINAL.has(task.status)).length;
  const inserted = tasks.length + other.ledger + other.usage + other.webhooks;
  const updated = accepted + polls + unfinishedPolls + ended;
  return { inserted, updated, total: inserted + updated };
}

/** Most tasks between their submit and their end at one moment (each counts from `createdAt` to `finishedAt`). */
export function peakInFlight(tasks: readonly EndedTask[]): number {
  const events: Array<[number, number]> = [];
  for (const task of tasks) {
    if (task.finishedAt === null) continue;
    events.push([task.createdAt, 1], [task.finishedAt, -1]);
  }
  // At equal times an end goes first: a task ending as another starts is not overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, change] of events) {
    now += change;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Polls a task of `taskMs` needs when every poll happens on time (jitter at its mean): the engine's floor. */
export function onTimePolls(policy: TaskPollPolicy, taskMs: number): number {
  let at = 0;
  let polls = 0;
  while (polls < 10_000) {
    at += pollDelay(policy, polls, () => 0.5);
    polls++;
    if (at >= taskMs) return polls;
  }
  return polls;
}
