/** Providers speaking the OpenAI Chat Completions dialect: `openai` and `openai-compatible`. */
export { createOpenAIProvider, type OpenAIProviderName } from './openai-chat-provider.js';
