/**
 * Anthropic tool_use ids start with `toolu_`; ids from other upstreams (and the sandbox) get
 * the prefix. The client sends the id back in `tool_result.tool_use_id` together with its
 * `tool_use` block, so the conversation stays consistent whatever upstream serves it next.
 */
export function anthropicToolUseId(id: string): string {
  return id.startsWith('toolu_') || id.startsWith('srvtoolu_') ? id : `toolu_${id}`;
}
