import type { ChatRequest } from '../../core/chat.js';
import { hashSeed, type HashSeed } from '../shared/hash-seed.js';

/**
 * The seed of a chat request: a hash of everything that shapes the answer. `stream` and
 * `includeUsage` only change the delivery, so a request streamed or not gets the same answer.
 */
export function seedChatRequest(request: ChatRequest): HashSeed {
  const { stream: _stream, includeUsage: _includeUsage, ...shaping } = request;
  return hashSeed(JSON.stringify(shaping));
}
