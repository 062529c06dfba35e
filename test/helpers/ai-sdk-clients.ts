/**
 * The Vercel AI SDK's three first-party providers pointed at a running gateway, as their users
 * configure them for a proxy: `@ai-sdk/openai` on `/v1` (chat completions; `openai(model)`
 * means the Responses API in v3, tested in responses-ai-sdk.test.ts), `@ai-sdk/anthropic` on
 * `/v1` (messages) and `@ai-sdk/google` on `/v1beta` (generateContent). No retries, so a failure
 * is seen as it is.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModel, LanguageModel } from 'ai';
import { z } from 'zod';

export type AiSdkProviderName = 'openai' | 'anthropic' | 'google';
export type AiSdkEmbeddingProviderName = 'openai' | 'google';

export interface AiSdkClients {
  openai: ReturnType<typeof createOpenAI>;
  anthropic: ReturnType<typeof createAnthropic>;
  google: ReturnType<typeof createGoogleGenerativeAI>;
  /** The chat model a user of that provider package gets for a gateway model id. */
  chat(provider: AiSdkProviderName, model: string): LanguageModel;
  embedding(provider: AiSdkEmbeddingProviderName, model: string): EmbeddingModel;
}

export function aiSdkClients(url: string, apiKey: string): AiSdkClients {
  const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey });
  const anthropic = createAnthropic({ baseURL: `${url}/v1`, apiKey });
  const google = createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey });
  return {
    openai,
    anthropic,
    google,
    chat(provider, model) {
      if (provider === 'openai') return openai.chat(model);
      if (provider === 'anthropic') return anthropic.messages(model);
      return google.chat(model);
    },
    embedding(provider, model) {
      return provider === 'openai' ? openai.embeddingModel(model) : google.embeddingModel(model);
    },
  };
}

/** A header of an AI SDK result's `response.headers` (a plain record, names in lower case). */
export function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  return headers?.[name.toLowerCase()];
}

// The schemas below use only constraints that all three provider packages send upstream:
// `@ai-sdk/google` keeps `minLength`, `enum`, `format` and `required`, but drops numeric bounds
// and array lengths from tool and response schemas, so no upstream (the sandbox included) could
// honour them for a Google user.

/** A tool's input as users write it for the AI SDK. */
export const weatherInput = z.object({
  city: z.string().min(2),
  unit: z.enum(['celsius', 'fahrenheit']),
  days: z.number().int(),
});

/** A structured answer with nesting, an array of objects, an enum, a boolean and an integer. */
export const recipeSchema = z.object({
  name: z.string().min(1),
  course: z.enum(['starter', 'main', 'dessert']),
  vegetarian: z.boolean(),
  servings: z.number().int(),
  ingredients: z.array(z.object({ item: z.string().min(1), grams: z.number().int() })),
});
