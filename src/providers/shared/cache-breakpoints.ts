/** Whether a request marks prompt-cache breakpoints (`cache_control`), which only Anthropic reads. */
import type { ChatRequest } from '../../core/chat.js';

export function hasCacheBreakpoints(request: ChatRequest): boolean {
  if (request.system?.some((part) => part.cacheControl !== undefined)) return true;
  return request.messages.some((message) => message.content.some((part) => 'cacheControl' in part && part.cacheControl !== undefined));
}
