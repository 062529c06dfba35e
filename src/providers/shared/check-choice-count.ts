/**
 * Several choices (OpenAI `n`) are answered only where the target produces them in one call;
 * elsewhere the request is refused with an error naming the target, rather than answered
 * with fewer choices than the client will index into.
 */
import type { ChatRequest } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';

export function refuseSeveralChoices(request: ChatRequest, upstream: string): void {
  if (request.n !== undefined && request.n > 1) {
    throw invalidRequest(`n: ${request.model} (${upstream}) answers one choice per translated request, got n=${request.n}`, 'n');
  }
}
