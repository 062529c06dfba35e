import { prefixedId } from '../../core/ids.js';

/** Gemini function calls often come without an id; the canonical form needs one. */
export function geminiToolCallId(id: string | undefined): string {
  return id !== undefined && id.length > 0 ? id : prefixedId('call_');
}
