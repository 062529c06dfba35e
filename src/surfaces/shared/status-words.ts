/**
 * The canonical task status in a task family's own words: one table per family, given as data.
 * Most families have one word for every state before the model runs and call a canceled task
 * failed (its error says it was canceled), so `submitted` takes `queued`'s word and `canceled`
 * `failed`'s unless the family names them.
 */
import type { TaskStatus } from '../../core/task.js';

interface StatusWordTable<W extends string> {
  queued: W;
  submitted?: W;
  running: W;
  succeeded: W;
  failed: W;
  canceled?: W;
}

export function statusWords<W extends string>(words: StatusWordTable<W>): (status: TaskStatus) => W {
  const table: Record<TaskStatus, W> = {
    queued: words.queued,
    submitted: words.submitted ?? words.queued,
    running: words.running,
    succeeded: words.succeeded,
    failed: words.failed,
    canceled: words.canceled ?? words.failed,
  };
  return (status) => table[status];
}
