import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../core/chat.js';
import type { SealedReasoning } from '../../core/responses.js';
import { forClient } from './render-response-object.js';
import { renderResponse } from './render-response.js';
import type { RenderContext } from './seams.js';

const MSG = expect.stringMatching(/^msg_[0-9a-f]{48}$/);
const FC = expect.stringMatching(/^fc_[0-9a-f]{48}$/);
const RS = expect.stringMatching(/^rs_[0-9a-f]{48}$/);

const sealed: SealedReasoning[] = [];
function context(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    responseId: 'resp_0123456789abcdef',
    createdAt: 1_760_000_000,
    model: 'claude-sonnet-4',
    echo: {},
    provider: 'anthropic',
    sealReasoning: (reasoning) => {
      sealed.push(reasoning);
      return `sealed-${sealed.length}`;
    },
    include: [],
    includeObfuscation: false,
    ...overrides,
  };
}

const answer = (overrides: Partial<ChatResponse>): ChatResponse => ({
  id: 'msg_upstream_1',
  model: 'claude-sonnet-4',
  created: 1_760_000_001,
  content: [{ type: 'text', text: 'Hello!' }],
  finishReason: 'stop',
  usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1024, reasoningTokens: 8 },
  ...overrides,
});

describe('renderResponse', () => {
  it('renders a text answer as a completed response object with one message, the echoed fields and Responses usage', () => {
    const rendered = renderResponse(
      answer({}),
      context({
        previousResponseId: 'resp_previous',
        echo: {
          instructions: 'Be brief.',
          tools: [],
          tool_choice: 'auto',
          store: true,
          temperature: 0.2,
          text: { format: { type: 'text' } },
          metadata: { a: '1' },
        },
      }),
    );
    expect(rendered.object).toEqual({
      id: 'resp_0123456789abcdef',
      object: 'response',
      created_at: 1_760_000_000,
      status: 'completed',
      completed_at: expect.any(Number),
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      metadata: { a: '1' },
      model: 'claude-sonnet-4',
      output: [
        { id: MSG, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello!' }], role: 'assistant' },
      ],
      parallel_tool_calls: true,
      previous_response_id: 'resp_previous',
      temperature: 0.2,
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      store: true,
      text: { format: { type: 'text' } },
      usage: {
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 0 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 8 },
        total_tokens: 1230,
      },
    });
    expect(rendered.object).not.toHaveProperty('output_text');
    expect(rendered.object.completed_at as number).toBeGreaterThanOrEqual(1_760_000_000);
    expect(rendered.outputItems).toEqual(rendered.object.output);
  });

  it('fills the fields OpenAI always returns when the request left them out, and no echoed field replaces the gateway’s own', () => {
    const rendered = renderResponse(
      answer({}),
      context({
        echo: { id: 'resp_forged', model: 'other', output: [], usage: null, status: 'failed', previous_response_id: 'resp_x', reasoning: { effort: 'low' } },
      }),
    );
    expect(rendered.object).toMatchObject({
      id: 'resp_0123456789abcdef',
      model: 'claude-sonnet-4',
      status: 'completed',
      previous_response_id: null,
      instructions: null,
      metadata: {},
      parallel_tool_calls: true,
      temperature: null,
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      reasoning: { effort: 'low' },
    });
    expect(rendered.object.output).toHaveLength(1);
    expect(rendered.object.usage).toMatchObject({ input_tokens: 1200, output_tokens: 30 });
  });

  it('renders tool calls as function_call items whose call_id is the canonical call id, after the text before them', () => {
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'text', text: 'Let me ' },
          { type: 'text', text: 'check.' },
          { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool_call', id: 'toolu_02', name: 'get_time', arguments: '' },
        ],
        finishReason: 'tool_calls',
      }),
      context(),
    );
    expect(rendered.object.status).toBe('completed');
    expect(rendered.outputItems).toEqual([
      {
        id: MSG,
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Let me check.' }],
        role: 'assistant',
      },
      { id: FC, type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: 'toolu_01', name: 'get_weather' },
      { id: FC, type: 'function_call', status: 'completed', arguments: '{}', call_id: 'toolu_02', name: 'get_time' },
    ]);
    const ids = rendered.outputItems.map((item) => item.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('seals signed reasoning with its text and provider, shows no summary unless asked, and shows encrypted_content only when included', () => {
    sealed.length = 0;
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'thinking', text: 'The user wants weather.', signature: 'EqQBsig' },
          { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
        finishReason: 'tool_calls',
      }),
      context(),
    );
    expect(sealed).toEqual([{ provider: 'anthropic', signature: 'EqQBsig', text: 'The user wants weather.' }]);
    expect(rendered.outputItems[0]).toEqual({ id: RS, type: 'reasoning', summary: [], encrypted_content: 'sealed-1' });
    expect(rendered.outputItems[1]).toMatchObject({ type: 'function_call', call_id: 'toolu_01' });

    const shown = forClient(rendered, []);
    expect((shown.output as unknown[])[0]).toEqual({ id: rendered.outputItems[0].id, type: 'reasoning', summary: [] });
    expect(rendered.outputItems[0].encrypted_content).toBe('sealed-1');
    expect((forClient(rendered, ['reasoning.encrypted_content']).output as unknown[])[0]).toEqual(rendered.outputItems[0]);
  });

  it('gives the reasoning text as a summary when the request asked for one', () => {
    sealed.length = 0;
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'thinking', text: 'Think first.', signature: 'sig-a' },
          { type: 'text', text: 'Done.' },
        ],
      }),
      context({ echo: { reasoning: { effort: 'medium', summary: 'auto' } } }),
    );
    expect(rendered.outputItems[0]).toEqual({
      id: RS,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Think first.' }],
      encrypted_content: 'sealed-1',
    });
    expect(sealed).toEqual([{ provider: 'anthropic', signature: 'sig-a', text: 'Think first.' }]);
    expect(rendered.outputItems[1]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Done.' }] });
  });

  it('gives no summary when the request set summary to null', () => {
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'thinking', text: 'Hmm.' },
          { type: 'text', text: 'Ok.' },
        ],
      }),
      context({ echo: { reasoning: { effort: 'high', summary: null } } }),
    );
    expect(rendered.outputItems[0]).toEqual({ id: RS, type: 'reasoning', summary: [] });
  });

  it('takes the deprecated generate_summary as a request for a summary too', () => {
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'thinking', text: 'Hmm.' },
          { type: 'text', text: 'Ok.' },
        ],
      }),
      context({ echo: { reasoning: { generate_summary: 'concise' } } }),
    );
    expect(rendered.outputItems[0]).toEqual({ id: RS, type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hmm.' }] });
  });

  it('seals redacted thinking, and renders unsigned thinking without encrypted_content; empty unsigned thinking is left out', () => {
    sealed.length = 0;
    const rendered = renderResponse(
      answer({
        content: [
          { type: 'thinking', text: '', redacted: 'EmwKAhgBEgy' },
          { type: 'thinking', text: 'plain thought' },
          { type: 'thinking', text: '' },
          { type: 'text', text: 'Hi.' },
        ],
      }),
      context({ provider: 'anthropic', echo: { reasoning: { summary: 'detailed' } } }),
    );
    expect(sealed).toEqual([{ provider: 'anthropic', redacted: 'EmwKAhgBEgy' }]);
    expect(rendered.outputItems).toEqual([
      { id: RS, type: 'reasoning', summary: [], encrypted_content: 'sealed-1' },
      { id: RS, type: 'reasoning', summary: [{ type: 'summary_text', text: 'plain thought' }] },
      { id: MSG, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hi.' }], role: 'assistant' },
    ]);
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content_filter', 'content_filter'],
  ] as const)('renders a %s finish as an incomplete response (%s), its last message incomplete', (finishReason, reason) => {
    const rendered = renderResponse(answer({ content: [{ type: 'text', text: 'Once upon a' }], finishReason }), context());
    expect(rendered.object).toMatchObject({ status: 'incomplete', incomplete_details: { reason }, completed_at: null, error: null });
    expect(rendered.outputItems).toEqual([
      {
        id: MSG,
        type: 'message',
        status: 'incomplete',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Once upon a' }],
        role: 'assistant',
      },
    ]);
  });

  it('marks a function call cut by the token limit incomplete', () => {
    const rendered = renderResponse(
      answer({ content: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":' }], finishReason: 'length' }),
      context(),
    );
    expect(rendered.outputItems).toEqual([{ id: FC, type: 'function_call', status: 'incomplete', arguments: '{"a":', call_id: 'call_1', name: 'f' }]);
  });

  it('renders a refusal as a refusal part, and an empty one when the model said nothing', () => {
    const refused = renderResponse(answer({ content: [{ type: 'text', text: "I can't help with that." }], finishReason: 'refusal' }), context());
    expect(refused.object.status).toBe('completed');
    expect(refused.outputItems).toEqual([
      { id: MSG, type: 'message', status: 'completed', content: [{ type: 'refusal', refusal: "I can't help with that." }], role: 'assistant' },
    ]);
    const silent = renderResponse(answer({ content: [], finishReason: 'refusal' }), context());
    expect(silent.outputItems).toEqual([{ id: MSG, type: 'message', status: 'completed', content: [{ type: 'refusal', refusal: '' }], role: 'assistant' }]);
  });

  it('renders an empty answer as a completed response without output', () => {
    const rendered = renderResponse(answer({ content: [], usage: { inputTokens: 3, outputTokens: 0 } }), context());
    expect(rendered.object).toMatchObject({ status: 'completed', output: [] });
  });
});
