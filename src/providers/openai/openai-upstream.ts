/** Where and how an OpenAI-dialect channel is called. */
import type { ChannelConfig } from '../types.js';

export function chatCompletionsUrl(channel: ChannelConfig): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** Keyless local servers (Ollama, llama.cpp) get no Authorization header at all. */
export function openAIHeaders(channel: ChannelConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Channel option `streamUsage: false` turns off `stream_options.include_usage` for servers that reject it. */
export function wantsStreamUsage(channel: ChannelConfig): boolean {
  return channel.options.streamUsage !== false;
}
