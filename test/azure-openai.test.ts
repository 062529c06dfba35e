/**
 * Azure OpenAI channels (`provider: azure-openai`) driven by the official SDKs against a fake Azure
 * resource and Entra token endpoint (fakes/fake-azure-openai.ts): the v1 API and the deployments
 * API with `api-version`, the `api-key` header and Microsoft Entra bearer tokens (fetched once,
 * cached), the public model mapped to a deployment, chat relayed and translated, streamed,
 * embeddings, the Responses API relayed, and a refused credential failing the channel over.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearEntraTokens } from '../src/providers/azure-openai/entra-token.js';
import { AZURE_API_KEY, ENTRA_CLIENT_ID, ENTRA_CLIENT_SECRET, ENTRA_TENANT, type FakeAzureOpenAI, startFakeAzureOpenAI } from './fakes/fake-azure-openai.js';
import { type FakeOpenAIUpstream, startFakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { FAKE_RESPONSES_KEY, type FakeResponsesUpstream, startFakeResponsesUpstream } from './fakes/fake-openai-responses-upstream.js';
import { startGateway } from './helpers/start-gateway.js';

let openaiFake: FakeOpenAIUpstream;
let responsesFake: FakeResponsesUpstream;
let azure: FakeAzureOpenAI;

beforeAll(async () => {
  openaiFake = await startFakeOpenAIUpstream({ apiKey: null });
  responsesFake = await startFakeResponsesUpstream();
  azure = await startFakeAzureOpenAI({ openai: openaiFake.url, responses: { url: responsesFake.url, key: FAKE_RESPONSES_KEY } });
});
afterAll(async () => {
  await azure?.close();
  await openaiFake?.close();
  await responsesFake?.close();
});
beforeEach(() => clearEntraTokens());

function azureChannel(name: string, options: Record<string, unknown>, apiKey = AZURE_API_KEY) {
  return {
    name,
    provider: 'azure-openai',
    baseUrl: azure.url,
    apiKey,
    models: ['gpt-4o', 'text-embedding-3-small'],
    modelMap: { 'gpt-4o': 'prod-gpt4o', 'text-embedding-3-small': 'embed-small' },
    options,
  };
}

describe('Azure OpenAI, v1 API with an api-key', () => {
  it('relays an OpenAI client, whole and streamed, to /openai/v1 with the deployment as the model', async () => {
    const gw = await startGateway({ channels: [azureChannel('azure-v1', {})] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const whole = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(whole.data.choices[0].message.content).toBeTruthy();
      expect(whole.data.model).toBe('gpt-4o');
      expect(whole.response.headers.get('x-gengate-provider')).toBe('azure-openai');
      const sent = azure.requests.at(-1)!;
      expect(sent.path).toBe('/openai/v1/chat/completions');
      expect(sent.query).toBe('');
      expect(sent.headers['api-key']).toBe(AZURE_API_KEY);
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.body?.model).toBe('prod-gpt4o');

      const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Count to three' }] });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text.length).toBeGreaterThan(0);

      // Another dialect reaches the same deployment by translation.
      const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const translated = await anthropic.messages.create({ model: 'gpt-4o', max_tokens: 40, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(translated.content[0]).toMatchObject({ type: 'text' });
      expect(azure.requests.at(-1)!.body).toMatchObject({ model: 'prod-gpt4o', max_completion_tokens: 40 });
    } finally {
      await gw.close();
    }
  });

  it('relays the Responses API to /openai/v1/responses', async () => {
    const gw = await startGateway({ channels: [azureChannel('azure-v1', {})] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const response = await client.responses.create({ model: 'gpt-4o', input: 'Say hi', store: false });
      expect(response.output_text.length).toBeGreaterThan(0);
      const sent = azure.requests.at(-1)!;
      expect(sent.path).toBe('/openai/v1/responses');
      expect(sent.body?.model).toBe('prod-gpt4o');
      expect(responsesFake.requests.at(-1)?.body.model).toBe('gpt-4o');
    } finally {
      await gw.close();
    }
  });
});

describe('Azure OpenAI, deployments API', () => {
  it('calls /openai/deployments/<deployment>/… with the channel api-version, chat and embeddings', async () => {
    const gw = await startGateway({ channels: [azureChannel('azure-dep', { apiVersion: '2024-10-21' })] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const chat = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(chat.choices[0].message.content).toBeTruthy();
      expect(azure.requests.at(-1)).toMatchObject({ path: '/openai/deployments/prod-gpt4o/chat/completions', query: 'api-version=2024-10-21' });

      const embedded = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] });
      expect(embedded.data).toHaveLength(2);
      expect(embedded.data[0].embedding.length).toBeGreaterThan(0);
      expect(azure.requests.at(-1)).toMatchObject({ path: '/openai/deployments/embed-small/embeddings', query: 'api-version=2024-10-21' });
    } finally {
      await gw.close();
    }
  });

  it('an api-version the resource does not know is a clear client error, not a 500', async () => {
    const gw = await startGateway({ channels: [azureChannel('azure-bad-version', { apiVersion: '1999-01-01' })] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBeLessThan(500);
    } finally {
      await gw.close();
    }
  });
});

describe('Azure OpenAI with Microsoft Entra ID', () => {
  const entra = { auth: 'entra', tenantId: ENTRA_TENANT, clientId: ENTRA_CLIENT_ID };

  it('exchanges the client secret for a bearer token once and reuses it', async () => {
    const gw = await startGateway({ channels: [azureChannel('azure-entra', { ...entra, authorityHost: azure.authorityHost }, ENTRA_CLIENT_SECRET)] });
    try {
      const issuedBefore = azure.tokensIssued;
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      await Promise.all([1, 2, 3].map(() => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }] })));
      await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Again' }] });
      expect(azure.tokensIssued - issuedBefore).toBe(1);
      const sent = azure.requests.at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer entra-token-${azure.tokensIssued}`);
      expect(sent.headers['api-key']).toBeUndefined();
    } finally {
      await gw.close();
    }
  });

  it('a refused client secret fails the channel over to the next one', async () => {
    const gw = await startGateway({
      channels: [azureChannel('azure-entra-bad', { ...entra, authorityHost: azure.authorityHost }, 'wrong-secret'), azureChannel('azure-key', {})],
    });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(answer.response.headers.get('x-gengate-channel')).toBe('azure-key');
      expect(answer.data.choices[0].message.content).toBeTruthy();
    } finally {
      await gw.close();
    }
  });
});
