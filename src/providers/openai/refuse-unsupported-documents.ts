/**
 * OpenAI-compatible servers (vLLM, Ollama, llama.cpp, LM Studio) and most hosted vendors do not
 * take `file` parts: some reject them, others drop them and answer as if no document was sent.
 * A channel whose flavour does not accept documents (`OpenAIFlavour.acceptsDocuments`) therefore
 * refuses them with a 400 unless its option `acceptsDocuments: true` says the server reads them.
 * Checked on the wire body, so translated and pass-through requests are refused alike.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ChannelConfig } from '../types.js';
import type { OpenAIFlavour } from './openai-flavour.js';

export function acceptsDocuments(channel: ChannelConfig, flavour: OpenAIFlavour): boolean {
  return flavour.acceptsDocuments || channel.options.acceptsDocuments === true;
}

/** Throws `invalid_request` naming the first `file` part when the channel does not take documents. */
export function refuseUnsupportedDocuments(body: object, channel: ChannelConfig, flavour: OpenAIFlavour): void {
  if (acceptsDocuments(channel, flavour)) return;
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return;
  for (let i = 0; i < messages.length; i++) {
    const content = (messages[i] as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (let j = 0; j < content.length; j++) {
      if ((content[j] as { type?: unknown } | null)?.type !== 'file') continue;
      const param = `messages[${i}].content[${j}]`;
      throw invalidRequest(
        `${param}: this model is served by an OpenAI-compatible server that does not accept documents (PDF files); send the document's text instead`,
        param,
      );
    }
  }
}
