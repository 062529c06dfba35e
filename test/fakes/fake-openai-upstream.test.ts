import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CREATED, FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fake-openai-upstream.js';

// The official SDK against the fake: if the SDK is satisfied, the fake speaks the wire format.
describe('fake OpenAI upstream', () => {
  let upstream: FakeOpenAIUpstream;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startFakeOpenAIUpstream();
    client = new OpenAI({ baseURL: upstream.url, apiKey: FAKE_OPENAI_API_KEY, maxRetries: 0 });
  });
  afterAll(() => upstream.close());

  it('answers a plain completion by echoing the last user message', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello there' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.created).toBe(FAKE_CREATED);
    expect(completion.choices[0].message.content).toBe('You said: hello there');
    expect(completion.choices[0].finish_reason).toBe('stop');
    // prompt: (4 + 2) + (4 + 2) words; completion: 4 words
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_API_KEY}`);
  });

  it('streams tool calls the SDK reassembles, with the usage chunk when asked', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
        },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.prompt_tokens).toBe(7);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    const args = chunks
      .flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
      .map((call) => call.function?.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ city: 'fake-city', days: 42 });
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers n choices, streamed or not, counting completion tokens for all', async () => {
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'twice please' }], n: 2 };
    const completion = await client.chat.completions.create(params);
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(completion.usage?.completion_tokens).toBe(8);
    const texts = ['', ''];
    const finishes: Array<string | null> = [null, null];
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) {
      for (const choice of chunk.choices) {
        texts[choice.index] += choice.delta.content ?? '';
        if (choice.finish_reason) finishes[choice.index] = choice.finish_reason;
      }
    }
    expect(texts).toEqual(['You said: twice please', 'You said: twice please']);
    expect(finishes).toEqual(['stop', 'stop']);
  });

  it('puts "usage":null in every chunk only when include_usage is asked', async () => {
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }], stream: true as const };
    const without = await (await client.chat.completions.create(params).asResponse()).text();
    expect(without).not.toContain('"usage"');
    const withUsage = await (await client.chat.completions.create({ ...params, stream_options: { include_usage: true } }).asResponse()).text();
    const frames = withUsage.split('\n\n').filter((frame) => frame.startsWith('data: {'));
    expect(frames.slice(0, -1).every((frame) => frame.endsWith(',"usage":null}'))).toBe(true);
  });

  it('refuses a wrong key with 401 invalid_api_key', async () => {
    const wrong = new OpenAI({ baseURL: upstream.url, apiKey: 'sk-wrong-key-1234', maxRetries: 0 });
    const error = await wrong.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });

  it('fails mid-stream with an error chunk the SDK throws', async () => {
    upstream.setNext('mid-stream-error');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'one two three' }], stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(seen).toEqual(['', 'You', ' said:']);
  });

  it('answers 429 with retry-after for the fail-429 model', async () => {
    const error = await client.chat.completions.create({ model: 'fail-429', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('2');
  });
});
