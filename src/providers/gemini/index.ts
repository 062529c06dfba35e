import type { Provider } from '../types.js';
import { createGeminiChatProvider } from './gemini-chat-provider.js';
import { createGeminiEmbed } from './gemini-embed.js';

/** The Gemini API upstream (`https://generativelanguage.googleapis.com` by default; channel option `apiVersion`, default `v1beta`). */
export function createGeminiProvider(): Provider {
  return {
    name: 'gemini',
    dialect: 'gemini',
    operations: new Set(['chat', 'embed']),
    chat: createGeminiChatProvider(),
    embed: createGeminiEmbed(),
  };
}
