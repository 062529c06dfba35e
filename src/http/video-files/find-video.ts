/**
 * The caller's own video task by id, whichever video surface created it (the download route and
 * the OpenAI videos surface serve them all). Unknown ids, another key's tasks and tasks that are
 * not videos all answer the same 404.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import { findOwnTask } from '../../core/own-task.js';
import type { Task } from '../../core/task.js';
import type { TaskFileSource } from './task-file-source.js';

export function findVideo(tasks: Pick<TaskFileSource, 'get'>, key: AuthenticatedKey, id: string): Promise<Task> {
  return findOwnTask(id, { get: (own) => tasks.get(key, own), serves: (task) => task.operation === 'video.generate', notFound: videoNotFound });
}

export function videoNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `no video with id ${quoteValue(id, 64)}`, { code: 'video_not_found' });
}
