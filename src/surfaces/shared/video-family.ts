/**
 * What every video family has in common, spread into its data: its name, `task_…` ids, the one
 * operation of its tasks (`video.generate`) and the 404 of an id it does not serve. Its results
 * download through `/v1/videos/{id}/download` (`shared/video-download-url.ts`).
 */
import { base32Id } from '../../core/ids.js';
import type { SurfaceName } from '../../gateway/contract.js';
import { taskNotFound } from './find-family-task.js';
import type { TaskFamilyDefinition } from './task-family.js';

export function videoFamily(name: SurfaceName): Pick<TaskFamilyDefinition, 'name' | 'newId' | 'operation' | 'notFound'> {
  return { name, newId: () => `task_${base32Id()}`, operation: 'video.generate', notFound: taskNotFound('video task') };
}
