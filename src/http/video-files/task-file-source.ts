/** What the video file routes need of the task engine: the caller's task, and its result files. */
import type { AuthenticatedKey } from '../../core/key.js';
import type { MediaRef, Task } from '../../core/task.js';
import type { ByteRange, StoredMedia } from '../../media/media-store.js';

export interface TaskFileSource {
  get(key: AuthenticatedKey, id: string): Promise<Task | undefined>;
  /** Result file `index` of a finished task (a byte range of it when asked). */
  openResult(task: Task, index: number, range?: ByteRange): Promise<{ kind: 'found'; media: StoredMedia; ref: MediaRef } | { kind: 'expired' | 'missing' }>;
}
