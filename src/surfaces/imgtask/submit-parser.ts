/**
 * One imgtask submit body parser as a task family's create parser: an absent body is refused
 * first, and the client's notifyHook (checked with the gateway's rules) becomes the task's
 * webhook with its `state`. The notifyHook is never sent upstream: the gateway delivers the task
 * record there itself, signed.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageLimits } from '../../core/image-bytes.js';
import type { TaskParser } from '../shared/task-family.js';
import type { ParsedSubmit } from './parse-submit.js';

export function submitParser(parse: (body: unknown, limits: ImageLimits) => ParsedSubmit): TaskParser {
  return (body, services) => {
    if (body === undefined) throw invalidRequest('the request body is empty; a JSON object is required');
    const { notifyHook, state, ...parsed } = parse(body, services.imageLimits);
    if (notifyHook === undefined) return parsed;
    services.tasks.checkCallbackUrl(notifyHook, 'notifyHook');
    return { ...parsed, callback: { url: notifyHook, state } };
  };
}
