import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { OPENAI_COMPATIBLE_FLAVOUR, OPENAI_FLAVOUR } from './openai-flavours.js';
import { acceptsDocuments, refuseUnsupportedDocuments } from './refuse-unsupported-documents.js';

const FLAVOURS: Record<string, OpenAIFlavour> = { openai: OPENAI_FLAVOUR, 'openai-compatible': OPENAI_COMPATIBLE_FLAVOUR };

/** A channel of that provider, and its flavour (the arguments the check takes). */
function channel(provider: string, options: Record<string, unknown> = {}): [ChannelConfig, OpenAIFlavour] {
  return [{ name: 'c', provider, baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', headers: {}, timeoutMs: 1000, options }, FLAVOURS[provider]];
}

const withFile = {
  model: 'llama',
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Summarise' },
        { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
      ],
    },
  ],
};

describe('refuseUnsupportedDocuments', () => {
  it('refuses file parts on an openai-compatible channel, naming the part', () => {
    expect(() => refuseUnsupportedDocuments(withFile, ...channel('openai-compatible'))).toThrow(
      expect.objectContaining({
        kind: 'invalid_request',
        status: 400,
        param: 'messages[1].content[1]',
        message:
          "messages[1].content[1]: this model is served by an OpenAI-compatible server that does not accept documents (PDF files); send the document's text instead",
      }),
    );
  });

  it('lets them through with acceptsDocuments: true, and always for OpenAI itself', () => {
    expect(() => refuseUnsupportedDocuments(withFile, ...channel('openai-compatible', { acceptsDocuments: true }))).not.toThrow();
    expect(() => refuseUnsupportedDocuments(withFile, ...channel('openai'))).not.toThrow();
    expect(acceptsDocuments(...channel('openai-compatible', { acceptsDocuments: 'yes' }))).toBe(false);
  });

  it('lets text and images through, and ignores odd bodies', () => {
    const plain = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
        null,
        { role: 'user', content: 'x' },
      ],
    };
    expect(() => refuseUnsupportedDocuments(plain, ...channel('openai-compatible'))).not.toThrow();
    expect(() => refuseUnsupportedDocuments({}, ...channel('openai-compatible'))).not.toThrow();
  });
});
