import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ResponseItem } from '../../core/responses.js';
import { MAX_HISTORY_ITEMS, MAX_INPUT_ITEMS, MAX_INPUT_PARTS, MAX_TEXT_CHARS } from './parse-responses-bounds.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import type { ParseContext } from './seams.js';

const TEN_MB = 10 * 1024 * 1024;

function context(history: ResponseItem[] = []): ParseContext {
  return { history, openReasoning: () => undefined };
}

function rejection(body: unknown, ctx = context()): GatewayError {
  try {
    parseResponsesRequest(body, ctx);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'input_text', text }] });

describe('the bounds of a Responses request', () => {
  it('are well below what the tests send', () => {
    expect(MAX_INPUT_ITEMS).toBeLessThanOrEqual(2_000);
    expect(MAX_TEXT_CHARS).toBeLessThanOrEqual(TEN_MB / 4);
  });

  it('refuse a 10,000-item input before looking at any item', () => {
    // Every item is malformed: the count is what is reported, so no item was parsed first.
    const error = rejection({ model: 'm', input: Array.from({ length: 10_000 }, () => 42) });
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.param).toBe('input');
    expect(error.message).toContain('10000 items');
  });

  it('accept an input of exactly the item cap', () => {
    const parsed = parseResponsesRequest({ model: 'm', input: Array.from({ length: MAX_INPUT_ITEMS }, (_, i) => user(`m${i}`)) }, context());
    expect(parsed.inputItems).toHaveLength(MAX_INPUT_ITEMS);
  });

  it('refuse a 10 MB text wherever it is, naming where, before any item is parsed', () => {
    const huge = 'x'.repeat(TEN_MB);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ input: huge }, 'input'],
      [{ instructions: huge, input: 'hi' }, 'instructions'],
      [{ input: [42, user('a'), user('b'), { role: 'user', content: [{ type: 'input_text', text: huge }] }] }, 'input[3].content[0].text'],
      [{ input: [42, { role: 'user', content: huge }] }, 'input[1].content'],
      [{ input: [42, { type: 'function_call', call_id: 'c', name: 'f', arguments: huge }] }, 'input[1].arguments'],
      [{ input: [42, { type: 'function_call_output', call_id: 'c', output: huge }] }, 'input[1].output'],
      [{ input: [42, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: huge }] }] }, 'input[1].output[0].text'],
      [{ input: [42, { type: 'reasoning', summary: [{ type: 'summary_text', text: huge }] }] }, 'input[1].summary[0].text'],
      [{ input: [42, { type: 'reasoning', summary: [], encrypted_content: huge }] }, 'input[1].encrypted_content'],
      [{ input: [42, { role: 'assistant', content: [{ type: 'refusal', refusal: huge }] }] }, 'input[1].content[0].refusal'],
    ];
    for (const [fields, param] of cases) {
      const error = rejection({ model: 'm', ...fields });
      expect({ param: error.param, status: error.status, kind: error.kind }).toEqual({ param, status: 400, kind: 'invalid_request' });
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it('accept a text of exactly the cap, and inline file data beyond it (bounded by the body and document limits)', () => {
    expect(parseResponsesRequest({ model: 'm', input: 'x'.repeat(MAX_TEXT_CHARS) }, context()).canonical.messages).toHaveLength(1);
    const pdf = `data:application/pdf;base64,${'A'.repeat(MAX_TEXT_CHARS + 4)}`;
    const parsed = parseResponsesRequest({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_data: pdf }] }] }, context());
    expect(parsed.canonical.messages[0].content[0].type).toBe('document');
  });

  it('refuse more content parts in all than the cap', () => {
    const perItem = 1_000;
    const items = Array.from({ length: MAX_INPUT_PARTS / perItem + 1 }, () => ({ role: 'user', content: Array.from({ length: perItem }, () => 7) }));
    const error = rejection({ model: 'm', input: items });
    expect(error.status).toBe(400);
    expect(error.param).toBe(`input[${MAX_INPUT_PARTS / perItem}].content`);
  });

  it('refuse to continue a conversation longer than the history cap', () => {
    const history = Array.from({ length: MAX_HISTORY_ITEMS + 1 }, (_, i) => ({
      type: 'message',
      id: `msg_${i}`,
      role: 'user',
      content: [{ type: 'input_text', text: 'x' }],
    }));
    const error = rejection({ model: 'm', input: 'hi', previous_response_id: 'resp_1' }, context(history));
    expect(error.status).toBe(400);
    expect(error.param).toBe('previous_response_id');
  });
});
