/** Anthropic message ids start with `msg_`; ids from other upstreams get the prefix. */
export function anthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : `msg_${id}`;
}
