import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ResponseItem, SealedReasoning } from '../../core/responses.js';
import { parseConversation } from './parse-input-items.js';
import type { ParseContext } from './seams.js';

function context(history: ResponseItem[] = [], sealed: Record<string, SealedReasoning> = {}): ParseContext {
  return { history, openReasoning: (encrypted) => sealed[encrypted] };
}

function rejection(input: unknown, ctx = context()): { param: string | undefined; message: string } {
  try {
    parseConversation(ctx.history, input, ctx);
  } catch (error) {
    if (error instanceof GatewayError && error.kind === 'invalid_request' && error.status === 400) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected the input to be rejected');
}

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const PDF = 'data:application/pdf;base64,JVBERi0xLjQ=';

describe('parseConversation: messages', () => {
  it('turns a string input into one user message with a msg_ id', () => {
    const parsed = parseConversation([], 'Hello', context());
    expect(parsed.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
    expect(parsed.system).toEqual([]);
    expect(parsed.inputItems).toHaveLength(1);
    expect(parsed.inputItems[0]).toEqual({
      type: 'message',
      id: expect.stringMatching(/^msg_[A-Za-z0-9]{20,}$/),
      role: 'user',
      content: [{ type: 'input_text', text: 'Hello' }],
    });
  });

  it('reads user parts: input_text, input_image (data: and https, detail) and input_file (file_data, file_url, filename)', () => {
    const parsed = parseConversation(
      [],
      [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: PNG, detail: 'low' },
            { type: 'input_image', image_url: 'https://example.com/cat.jpg' },
            { type: 'input_image', image_url: 'https://example.com/map.png', detail: 'original' },
            { type: 'input_file', file_data: PDF, filename: 'report.pdf' },
            { type: 'input_file', file_url: 'https://example.com/paper.pdf' },
            { type: 'input_file', file_data: 'aGVsbG8=', filename: 'notes.txt' },
          ],
        },
      ],
      context(),
    );
    expect(parsed.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'low' },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/map.png' }, detail: 'high' },
          { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' }, filename: 'report.pdf' },
          { type: 'document', source: { kind: 'url', url: 'https://example.com/paper.pdf' } },
          { type: 'document', source: { kind: 'base64', mediaType: 'text/plain', data: 'aGVsbG8=' }, filename: 'notes.txt' },
        ],
      },
    ]);
    expect(parsed.inputItems[0].content).toEqual([
      { type: 'input_text', text: 'Look' },
      { type: 'input_image', image_url: PNG, detail: 'low' },
      { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
      { type: 'input_image', image_url: 'https://example.com/map.png', detail: 'original' },
      { type: 'input_file', file_data: PDF, filename: 'report.pdf' },
      { type: 'input_file', file_url: 'https://example.com/paper.pdf' },
      { type: 'input_file', file_data: 'aGVsbG8=', filename: 'notes.txt' },
    ]);
  });

  it('reads the easy form (no type), collects system and developer text in order, keeps assistant text and refusals', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: [{ type: 'input_text', text: 'Metric units.' }] },
        { role: 'user', content: 'Hi' },
        { type: 'message', role: 'assistant', id: 'msg_prev', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] },
        { role: 'user', content: 'Why?' },
      ],
      context(),
    );
    expect(parsed.system).toEqual([
      { type: 'text', text: 'Be terse.' },
      { type: 'text', text: 'Metric units.' },
    ]);
    expect(parsed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'text', text: 'I cannot.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Why?' }] },
    ]);
    expect(parsed.inputItems.map((item) => item.id)).toEqual([
      expect.stringMatching(/^msg_/),
      expect.stringMatching(/^msg_/),
      expect.stringMatching(/^msg_/),
      'msg_prev',
      expect.stringMatching(/^msg_/),
      expect.stringMatching(/^msg_/),
    ]);
    expect(parsed.inputItems[0]).toMatchObject({ type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Be terse.' }] });
    expect(parsed.inputItems[4]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] });
    const ids = new Set(parsed.inputItems.map((item) => item.id));
    expect(ids.size).toBe(6);
  });

  it('stores an assistant string as output_text', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      context(),
    );
    expect(parsed.inputItems[1].content).toEqual([{ type: 'output_text', text: 'Hello', annotations: [] }]);
  });

  it('refuses parts a role cannot hold, and file ids, naming the part', () => {
    expect(rejection([{ role: 'system', content: [{ type: 'input_image', image_url: PNG }] }]).param).toBe('input[0].content[0].type');
    expect(rejection([{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }]).param).toBe('input[0].content[0].type');
    expect(rejection([{ role: 'assistant', content: [{ type: 'input_image', image_url: PNG }] }]).param).toBe('input[0].content[0].type');
    const image = rejection([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'a' },
          { type: 'input_image', file_id: 'file-1' },
        ],
      },
    ]);
    expect(image.param).toBe('input[0].content[1].file_id');
    expect(image.message).toContain('no Files API');
    const file = rejection([{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }]);
    expect(file.param).toBe('input[0].content[0].file_id');
    expect(rejection([{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf' }] }]).param).toBe('input[0].content[0].file_data');
    expect(rejection([{ role: 'user', content: [{ type: 'input_file', file_url: 'ftp://x/a.pdf' }] }]).param).toBe('input[0].content[0].file_url');
    expect(rejection([{ role: 'user', content: [{ type: 'input_image', image_url: 'file:///etc/passwd' }] }]).param).toBe('input[0].content[0].image_url');
    expect(rejection([{ role: 'user', content: [{ type: 'input_image', image_url: PNG, detail: 'huge' }] }]).param).toBe('input[0].content[0].detail');
    expect(rejection([{ role: 'user', content: [] }]).param).toBe('input[0].content');
    expect(rejection([{ role: 'user', content: 7 }]).param).toBe('input[0].content');
    expect(rejection([{ role: 'user', content: [{ type: 'input_text', text: 3 }] }]).param).toBe('input[0].content[0].text');
    expect(rejection([{ role: 'tool', content: 'x' }]).param).toBe('input[0].role');
    expect(rejection([{ type: 'message', content: 'x' }]).param).toBe('input[0].role');
  });

  it('refuses items it cannot translate by type, and shapes that are not items', () => {
    const unknown = rejection([{ type: 'web_search_call', id: 'ws_1', status: 'completed' }]);
    expect(unknown.param).toBe('input[0].type');
    expect(unknown.message).toContain('"web_search_call"');
    expect(rejection([{ content: 'no role, no id' }]).param).toBe('input[0].type');
    expect(rejection(['just a string']).param).toBe('input[0]');
    expect(rejection(42).param).toBe('input');
    expect(rejection([{ role: 'user', content: 'x', id: '' }]).param).toBe('input[0].id');
    expect(rejection([{ role: 'user', content: 'x', id: 'msg_\u0007' }]).param).toBe('input[0].id');
  });
});

describe('parseConversation: tool calls', () => {
  it('makes function calls one assistant turn with the reasoning before them, and outputs named tool results', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', id: 'fc_given', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        {
          type: 'function_call_output',
          call_id: 'call_2',
          output: [
            { type: 'input_text', text: '21C' },
            { type: 'input_image', image_url: PNG },
          ],
        },
      ],
      context(),
    );
    expect(parsed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: '18C' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_2',
            name: 'get_weather',
            content: [
              { type: 'text', text: '21C' },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
      },
    ]);
    expect(parsed.inputItems[1]).toEqual({
      type: 'function_call',
      id: expect.stringMatching(/^fc_/),
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(parsed.inputItems[2].id).toBe('fc_given');
    expect(parsed.inputItems[3]).toEqual({ type: 'function_call_output', id: expect.stringMatching(/^fco_/), call_id: 'call_1', output: '18C' });
    expect(parsed.inputItems[4].output).toEqual([
      { type: 'input_text', text: '21C' },
      { type: 'input_image', image_url: PNG, detail: 'auto' },
    ]);
  });

  it('finds the call an output answers in the history', () => {
    const history: ResponseItem[] = [
      { type: 'message', id: 'msg_1', role: 'user', content: [{ type: 'input_text', text: 'Time?' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'clock', arguments: '{}' },
    ];
    const parsed = parseConversation(history, [{ type: 'function_call_output', call_id: 'call_9', output: '12:00' }], context(history));
    expect(parsed.messages[2]).toEqual({ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_9', name: 'clock', content: '12:00' }] });
    expect(parsed.inputItems).toHaveLength(1);
  });

  it('refuses an output that answers no earlier call, and malformed calls and outputs', () => {
    const orphan = rejection([
      { role: 'user', content: 'x' },
      { type: 'function_call_output', call_id: 'call_x', output: 'y' },
    ]);
    expect(orphan.param).toBe('input[1].call_id');
    expect(orphan.message).toContain('"call_x"');
    expect(rejection([{ type: 'function_call', call_id: 'c', arguments: '{}' }]).param).toBe('input[0].name');
    expect(rejection([{ type: 'function_call', call_id: '', name: 'f', arguments: '{}' }]).param).toBe('input[0].call_id');
    expect(rejection([{ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }]).param).toBe('input[0].arguments');
    const call = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
    expect(rejection([call, { type: 'function_call_output', call_id: 'c' }]).param).toBe('input[1].output');
    expect(rejection([call, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_data: PDF }] }]).param).toBe(
      'input[1].output[0].type',
    );
    expect(rejection([call, { type: 'function_call_output', call_id: 'c', output: [{ type: 'output_text', text: 'x' }] }]).param).toBe(
      'input[1].output[0].type',
    );
  });
});

describe('parseConversation: history and item_reference', () => {
  const history: ResponseItem[] = [
    { type: 'message', id: 'msg_u1', role: 'user', content: [{ type: 'input_text', text: 'Name a colour.' }] },
    { type: 'message', id: 'msg_a1', role: 'assistant', content: [{ type: 'output_text', text: 'Blue.', annotations: [] }] },
  ];

  it('puts the history before this turn and stores only this turn', () => {
    const parsed = parseConversation(history, 'Another?', context(history));
    expect(parsed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Name a colour.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Blue.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Another?' }] },
    ]);
    expect(parsed.inputItems).toHaveLength(1);
    expect(parsed.inputItems[0].content).toEqual([{ type: 'input_text', text: 'Another?' }]);
  });

  it('resolves a reference to a history item or to an item of this input, with or without type', () => {
    const parsed = parseConversation(
      history,
      [{ type: 'item_reference', id: 'msg_u1' }, { type: 'message', id: 'msg_mine', role: 'user', content: 'Mine' }, { id: 'msg_mine' }],
      context(history),
    );
    expect(parsed.messages.slice(2)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Name a colour.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Mine' }] },
      { role: 'user', content: [{ type: 'text', text: 'Mine' }] },
    ]);
    expect(parsed.inputItems[0]).toEqual(history[0]);
    expect(parsed.inputItems[2]).toEqual({ type: 'message', id: 'msg_mine', role: 'user', content: [{ type: 'input_text', text: 'Mine' }] });
  });

  it("falls back to the account's stored items, after the history and this input", () => {
    const call: ResponseItem = { type: 'function_call', id: 'fc_stored', call_id: 'call_s', name: 'get_weather', arguments: '{"city":"Paris"}' };
    const shadowed: ResponseItem = { type: 'message', id: 'msg_u1', role: 'user', content: [{ type: 'input_text', text: 'Stored copy.' }] };
    const storedItems = new Map<string, ResponseItem>([
      ['fc_stored', call],
      ['msg_u1', shadowed],
    ]);
    const parsed = parseConversation(
      history,
      [
        { type: 'item_reference', id: 'fc_stored' },
        { type: 'function_call_output', call_id: 'call_s', output: '21C' },
        { type: 'item_reference', id: 'msg_u1' },
      ],
      { ...context(history), storedItems },
    );
    expect(parsed.inputItems[0]).toEqual({ type: 'function_call', id: 'fc_stored', call_id: 'call_s', name: 'get_weather', arguments: '{"city":"Paris"}' });
    // The output found the call its reference stood for.
    expect(parsed.messages[2]).toEqual({ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_s', name: 'get_weather', content: '21C' }] });
    // The conversation's own item of an id wins over a stored one.
    expect(parsed.inputItems[2]).toEqual(history[0]);
    expect(rejection([{ type: 'item_reference', id: 'fc_other' }], { ...context(), storedItems }).param).toBe('input[0].id');
  });

  it('refuses a reference to an unknown id, and a reference to a reference', () => {
    const unknown = rejection([{ type: 'item_reference', id: 'msg_nope' }], context(history));
    expect(unknown.param).toBe('input[0].id');
    expect(unknown.message).toContain('"msg_nope"');
    expect(
      rejection([
        { type: 'item_reference', id: 'ref_1' },
        { type: 'item_reference', id: 'ref_1' },
      ]).param,
    ).toBe('input[0].id');
    expect(rejection([{ type: 'item_reference' }]).param).toBe('input[0].id');
  });

  it('reports a stored conversation it cannot read against previous_response_id', () => {
    const broken: ResponseItem[] = [{ type: 'message', id: 'msg_1', role: 'robot', content: 'beep' }];
    const error = rejection('Hi', context(broken));
    expect(error.param).toBe('previous_response_id');
    expect(error.message).toContain('history[0].role');
  });

  it('leaves out the hosted-tool items of a turn relayed to OpenAI, keeping the answer that used them', () => {
    const history: ResponseItem[] = [
      { type: 'message', id: 'msg_1', role: 'user', content: 'Search for otters' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'otters' } },
      { type: 'message', id: 'msg_2', role: 'assistant', content: [{ type: 'output_text', text: 'Otters hold hands.', annotations: [] }] },
    ];
    const { messages } = parseConversation(history, 'More?', context(history));
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1].content).toEqual([{ type: 'text', text: 'Otters hold hands.' }]);
  });
});

describe('parseConversation: reasoning', () => {
  const sealed: Record<string, SealedReasoning> = {
    'sealed-anthropic': { provider: 'anthropic', signature: 'sig-a', text: 'full thought' },
    'sealed-redacted': { provider: 'anthropic', redacted: 'opaque' },
  };

  it('opens sealed reasoning into signed thinking with its origin, before the calls it led to', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'user', content: 'Go' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'short' }], encrypted_content: 'sealed-anthropic' },
        { type: 'reasoning', summary: [], encrypted_content: 'sealed-redacted' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      ],
      context([], sealed),
    );
    expect(parsed.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'full thought', signature: 'sig-a', origin: 'anthropic' },
        { type: 'thinking', text: '', redacted: 'opaque', origin: 'anthropic' },
        { type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' },
      ],
    });
    expect(parsed.inputItems[1]).toEqual({
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'short' }],
      encrypted_content: 'sealed-anthropic',
    });
    expect(parsed.inputItems[2].id).toMatch(/^rs_/);
  });

  it('drops reasoning whose encrypted_content does not open, but stores the item', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'user', content: 'Go' },
        { type: 'reasoning', id: 'rs_openai', summary: [{ type: 'summary_text', text: 'thought' }], encrypted_content: 'gAAAAopenai-own' },
        { role: 'assistant', content: 'Done' },
      ],
      context([], sealed),
    );
    expect(parsed.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done' }] });
    expect(parsed.inputItems[1]).toMatchObject({ id: 'rs_openai', encrypted_content: 'gAAAAopenai-own' });
  });

  it('keeps reasoning without encrypted_content as unsigned thinking of its text', () => {
    const parsed = parseConversation(
      [],
      [
        { role: 'user', content: 'Go' },
        {
          type: 'reasoning',
          summary: [
            { type: 'summary_text', text: 'a' },
            { type: 'summary_text', text: 'b' },
          ],
        },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 's' }], content: [{ type: 'reasoning_text', text: 'raw' }] },
        { type: 'reasoning', summary: [] },
        { role: 'assistant', content: 'Done' },
      ],
      context(),
    );
    expect(parsed.messages[1].content).toEqual([
      { type: 'thinking', text: 'a\n\nb' },
      { type: 'thinking', text: 'raw' },
      { type: 'text', text: 'Done' },
    ]);
  });

  it('refuses malformed summaries', () => {
    expect(rejection([{ type: 'reasoning', summary: [{ type: 'text', text: 'x' }] }]).param).toBe('input[0].summary[0].type');
    expect(rejection([{ type: 'reasoning', summary: 'x' }]).param).toBe('input[0].summary');
    expect(rejection([{ type: 'reasoning', summary: [], encrypted_content: 5 }]).param).toBe('input[0].encrypted_content');
  });
});
