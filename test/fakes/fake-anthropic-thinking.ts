/**
 * Extended thinking in the fake Anthropic upstream, as the real API behaves:
 * - with `thinking: {type: "enabled"}` the answer starts with a `thinking` block whose
 *   `signature` the server can verify (streamed as `thinking_delta`s then one `signature_delta`);
 * - every `thinking` block sent back must carry a signature this server issued for exactly that
 *   text, or the request is a 400;
 * - with thinking on, the final assistant turn, when it holds a tool call, must start with a
 *   thinking block (the 400 the real API gives a tool loop whose thinking was dropped), the
 *   budget must be at least 1024, and temperature / top_k / a low top_p are refused.
 */
import { createHmac } from 'node:crypto';

type Json = Record<string, unknown>;

const SIGNING_KEY = 'fake-anthropic-thinking-key';
const DOCS = 'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** The signature this fake issues for a thinking text (base64, like the real ones). */
export function fakeThinkingSignature(text: string): string {
  return createHmac('sha256', SIGNING_KEY).update(text).digest('base64');
}

function blocksOf(message: Json): Json[] {
  return Array.isArray(message.content) ? (message.content as Json[]) : [];
}

/** The 400 message the real API would give this request for its thinking, or undefined. */
export function thinkingRequestError(body: Json): string | undefined {
  const messages = body.messages as Json[];
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of blocksOf(message).entries()) {
      if (block.type !== 'thinking') continue;
      if (typeof block.signature !== 'string' || block.signature !== fakeThinkingSignature(String(block.thinking))) {
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  const thinking = body.thinking as Json | undefined;
  if (thinking?.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || (budget as number) < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (body.temperature !== undefined && body.temperature !== 1) return `\`temperature\` may only be set to 1 when thinking is enabled. ${DOCS}`;
  if (body.top_k !== undefined) return `\`top_k\` must be unset when thinking is enabled. ${DOCS}`;
  if (typeof body.top_p === 'number' && body.top_p < 0.95) return `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. ${DOCS}`;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== 'assistant') continue;
    const blocks = blocksOf(messages[i]);
    const first = blocks[0]?.type;
    if (blocks.some((b) => b.type === 'tool_use') && first !== 'thinking' && first !== 'redacted_thinking') {
      return (
        `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, ` +
        'a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
        `We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. ${DOCS}`
      );
    }
    break;
  }
  return undefined;
}

/** Puts a signed thinking block first in an answer to a thinking request (and counts it as output). */
export function addThinking(body: Json, answer: { content: Json[]; usage: { output_tokens: number } }): void {
  if ((body.thinking as Json | undefined)?.type !== 'enabled') return;
  const next = answer.content.find((block) => block.type === 'tool_use');
  const text = next ? `The user needs ${String(next.name)}, so I will call it.` : 'The user wrote to me, so I will answer what they said.';
  answer.content.unshift({ type: 'thinking', thinking: text, signature: fakeThinkingSignature(text) });
  answer.usage.output_tokens += text.split(' ').length;
}

/** The stream events of one thinking block: start, a few thinking deltas, the signature, stop is the caller's. */
export function thinkingEvents(index: number, block: Json): Array<[string, Json]> {
  const events: Array<[string, Json]> = [['content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }]];
  const words = String(block.thinking).split(/(?<= )/);
  for (let i = 0; i < words.length; i += 3) {
    events.push(['content_block_delta', { index, delta: { type: 'thinking_delta', thinking: words.slice(i, i + 3).join('') } }]);
  }
  events.push(['content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }]);
  return events;
}
