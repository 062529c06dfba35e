import { describe, expect, it } from 'vitest';
import { sandboxTaskPollPolicy } from '../src/sandbox/tasks/task-poll-policy.js';
import { type EndedTask, lateness, meanPollIntervalMs, observations, onTimePolls, peakInFlight, plannedEnd, rowWrites } from './tasks-load-figures.js';

const record = (startedAt: number, totalMs: number) => JSON.stringify({ startedAt, totalMs, outputs: [], grid: true });

const tasks: EndedTask[] = [
  { status: 'succeeded', createdAt: 0, pollCount: 10, finishedAt: 10_250, upstreamData: record(0, 10_000), submitted: true },
  { status: 'succeeded', createdAt: 1_000, pollCount: 12, finishedAt: 11_100, upstreamData: record(1_000, 10_000), submitted: true },
  // Refused before any upstream took it: no record, never polled.
  { status: 'failed', createdAt: 0, pollCount: 0, finishedAt: 5, upstreamData: null, submitted: false },
];

describe('task load figures', () => {
  it('reads the planned end from the sandbox record', () => {
    expect(plannedEnd(record(1_000, 500))).toBe(1_500);
    expect(plannedEnd(null)).toBeUndefined();
    expect(plannedEnd('{"other":1}')).toBeUndefined();
  });

  it('measures lateness only for tasks with a planned end', () => {
    expect(lateness(tasks)).toEqual([250, 100]);
  });

  it('counts the finishing poll that poll_count leaves out, and none for a task never accepted', () => {
    expect(observations(tasks)).toBe(10 + 1 + 12 + 1);
  });

  it('gives the mean time between polls of a task', () => {
    // lifetimes 10,250 + 10,100 ms over 24 polls
    expect(meanPollIntervalMs(tasks)).toBeCloseTo(20_350 / 24);
  });

  it('adds up the writes of every step', () => {
    const writes = rowWrites(tasks, { ledger: 5, usage: 3, webhooks: 0 });
    expect(writes.inserted).toBe(3 + 5 + 3);
    // 2 accepted + 24 claims + 22 releases + 3 terminal updates
    expect(writes.updated).toBe(2 + 24 + 22 + 3);
    expect(writes.total).toBe(writes.inserted + writes.updated);
  });

  it('finds the most tasks in flight at one moment', () => {
    expect(peakInFlight(tasks)).toBe(2);
    const touching: EndedTask[] = [
      { ...tasks[0], createdAt: 0, finishedAt: 100 },
      { ...tasks[0], createdAt: 100, finishedAt: 200 },
    ];
    expect(peakInFlight(touching)).toBe(1);
  });

  it('gives the on-time poll count of a sandbox task', () => {
    // 500, 750, then every 1,000 ms: 0.5, 1.25, 2.25 … 10.25 s
    expect(onTimePolls(sandboxTaskPollPolicy(10_000), 10_000)).toBe(11);
  });
});
