/**
 * Azure OpenAI: the OpenAI adapter over Azure's layout and authentication (`azure-endpoint.ts`).
 * Chat, the Responses API (relayed untranslated, as to OpenAI), embeddings and images.
 */
import { OPENAI_STOP_RULES } from '../shared/check-stop-sequences.js';
import { openAIFlavourDescriptor } from '../openai/openai-flavour-descriptor.js';
import type { OpenAIFlavour } from '../openai/openai-flavour.js';
import type { ProviderDescriptor } from '../types.js';

export const AZURE_OPENAI_FLAVOUR: OpenAIFlavour = {
  name: 'azure-openai',
  operations: ['chat', 'embed', 'image.generate', 'image.edit'],
  // No default base URL: each resource has its own (`https://<resource>.openai.azure.com`).
  envPreset: {
    keyVar: 'AZURE_OPENAI_API_KEY',
    baseVar: 'AZURE_OPENAI_ENDPOINT',
    rewriteVar: 'AZURE_OPENAI_MODEL_REWRITE',
    rewrite: [],
    modelMap: {},
    extraModels: ['gpt-*', 'o1*', 'o3*', 'o4*', 'text-embedding-*', 'dall-e-*'],
  },
  maxTokensField: 'max_completion_tokens',
  stopRules: { ...OPENAI_STOP_RULES, upstream: 'Azure OpenAI' },
  acceptsDocuments: true,
  maxTools: 128,
  servesResponses: true,
};

// The endpoint (URL layouts, Entra tokens) is loaded with the adapter, when a channel is built.
export const azureOpenAIDescriptor: ProviderDescriptor = {
  ...openAIFlavourDescriptor(AZURE_OPENAI_FLAVOUR, async () => (await import('./azure-endpoint.js')).AZURE_ENDPOINT),
  channelOptions: {
    apiVersion: { type: 'string', pattern: /^[A-Za-z0-9._-]{1,64}$/, expected: 'an Azure OpenAI API version such as 2024-10-21 (or v1)' },
    auth: { type: 'string', pattern: /^(key|entra)$/, expected: 'key or entra' },
    tenantId: { type: 'string', pattern: /^[A-Za-z0-9.-]{1,128}$/, expected: 'an Entra tenant id or domain' },
    clientId: { type: 'string', pattern: /^[A-Za-z0-9-]{1,128}$/, expected: "an Entra application's client id" },
    authorityHost: { type: 'string', pattern: /^https?:\/\/[^\s?#]{1,253}$/, expected: 'an http(s) URL such as https://login.microsoftonline.com' },
  },
};
