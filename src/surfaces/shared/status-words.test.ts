import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../core/task.js';
import { statusWords } from './status-words.js';

const STATUSES: TaskStatus[] = ['queued', 'submitted', 'running', 'succeeded', 'failed', 'canceled'];

describe('statusWords', () => {
  it('gives submitted the word of queued and canceled the word of failed unless the family names them', () => {
    const short = statusWords({ queued: 'waiting', running: 'busy', succeeded: 'done', failed: 'broken' });
    expect(STATUSES.map(short)).toEqual(['waiting', 'waiting', 'busy', 'done', 'broken', 'broken']);
    const full = statusWords({ queued: 'q', submitted: 's', running: 'r', succeeded: 'ok', failed: 'f', canceled: 'c' });
    expect(STATUSES.map(full)).toEqual(['q', 's', 'r', 'ok', 'f', 'c']);
  });
});
