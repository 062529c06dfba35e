/**
 * Thinking another vendor signed cannot be replayed: each vendor verifies only its own
 * signatures (Anthropic rejects the request, Gemini the part). Thinking parts whose `origin`
 * names another provider kind — reasoning a Responses conversation carried over from an earlier
 * turn answered elsewhere — are left out of the request, and the client is told once.
 */
import type { ChatMessage } from '../../core/chat.js';

/** `messages` without the thinking parts signed by a provider kind other than `own`; the same array when there are none. */
export function withoutForeignThinking(messages: ChatMessage[], own: string, warn: (message: string) => void): ChatMessage[] {
  const dropped = new Map<string, number>();
  const isForeign = (part: ChatMessage['content'][number]) => part.type === 'thinking' && part.origin !== undefined && part.origin !== own;
  if (!messages.some((message) => message.content.some(isForeign))) return messages;
  const kept = messages.map((message) => {
    if (!message.content.some(isForeign)) return message;
    const content = message.content.filter((part) => {
      if (!isForeign(part) || part.type !== 'thinking' || part.origin === undefined) return true;
      dropped.set(part.origin, (dropped.get(part.origin) ?? 0) + 1);
      return false;
    });
    return { ...message, content };
  });
  const counts = [...dropped].map(([origin, count]) => `${count} from ${origin}`).join(', ');
  warn(`reasoning: thinking signed by another vendor dropped (${counts}): ${own} cannot verify it`);
  return kept;
}
