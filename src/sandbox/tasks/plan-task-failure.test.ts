import { describe, expect, it } from 'vitest';
import { FAILURE_SHARE, planTaskFailure } from './plan-task-failure.js';

const settings = (taskFailureRate: number, failModels: string[] = []) => ({ taskFailureRate, failModels: new Set(failModels) });

describe('planTaskFailure', () => {
  it('always fails the configured models, public or upstream id', () => {
    expect(planTaskFailure(settings(0, ['up-1']), 't1', ['public-1', 'up-1'])).toEqual({ message: 'model up-1 is configured to fail', atShare: FAILURE_SHARE });
    expect(planTaskFailure(settings(0, ['other']), 't1', ['public-1', 'up-1'])).toBeUndefined();
  });

  it('fails about the asked share of tasks, the same ones every time', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `task_${i}`);
    const failing = ids.filter((id) => planTaskFailure(settings(0.25), id, ['m']));
    expect(failing.length / ids.length).toBeGreaterThan(0.2);
    expect(failing.length / ids.length).toBeLessThan(0.3);
    expect(ids.filter((id) => planTaskFailure(settings(0.25), id, ['m']))).toEqual(failing);
    expect(ids.every((id) => planTaskFailure(settings(1), id, ['m']))).toBe(true);
    expect(ids.some((id) => planTaskFailure(settings(0), id, ['m']))).toBe(false);
  });
});
