import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ResponseItem, SealedReasoning } from '../../core/responses.js';
import { relayRequest } from './relay-request.js';
import type { ParseContext } from './seams.js';

const SEALED: Record<string, SealedReasoning> = {
  'sealed-openai': { provider: 'openai', encrypted: 'gAAAA-openai-own', itemId: 'rs_upstream' },
  'sealed-anthropic': { provider: 'anthropic', signature: 'sig', text: 'thought' },
};

function context(history: ResponseItem[] = [], storedItems?: Map<string, ResponseItem>): ParseContext {
  return { history, openReasoning: (sealed) => SEALED[sealed], ...(storedItems ? { storedItems } : {}) };
}

function rejection(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('relayRequest', () => {
  it('keeps the body as sent but for store (false upstream) and include (encrypted reasoning asked once)', () => {
    const body = { model: 'm', input: 'Hi', tools: [{ type: 'web_search' }], include: ['message.output_text.logprobs'], metadata: { a: 'b' } };
    const { body: sent, inputItems } = relayRequest(body, context(), true);
    expect(sent).toEqual({ ...body, store: false, include: ['message.output_text.logprobs', 'reasoning.encrypted_content'] });
    expect(relayRequest({ ...body, include: ['reasoning.encrypted_content'] }, context(), true).body.include).toEqual(['reasoning.encrypted_content']);
    expect(relayRequest({ model: 'm', input: 'Hi' }, context(), false).body).toEqual({ model: 'm', input: 'Hi', store: false });
    expect(inputItems).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }], id: expect.stringMatching(/^msg_/) }]);
  });

  it('replaces previous_response_id by the history, without the gateway ids, OpenAI reasoning opened, another vendor’s and hosted-tool items left out', () => {
    const history: ResponseItem[] = [
      { type: 'message', id: 'msg_g1', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] },
      { type: 'reasoning', id: 'rs_g1', summary: [], encrypted_content: 'sealed-anthropic' },
      { type: 'reasoning', id: 'rs_g2', summary: [], encrypted_content: 'sealed-openai' },
      { type: 'reasoning', id: 'rs_g3', summary: [{ type: 'summary_text', text: 'unsigned' }] },
      { type: 'function_call', id: 'fc_g1', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
    ];
    const { body } = relayRequest({ model: 'm', input: 'Next', previous_response_id: 'resp_prev' }, context(history), true);
    expect(body.previous_response_id).toBeUndefined();
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] },
      { type: 'reasoning', id: 'rs_upstream', summary: [], encrypted_content: 'gAAAA-openai-own' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'message', role: 'user', content: 'Next' },
    ]);
  });

  it('expands references to the conversation’s or the account’s stored items, and refuses unknown ones', () => {
    const stored = new Map<string, ResponseItem>([
      ['msg_old', { type: 'message', id: 'msg_old', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier' }] }],
    ]);
    const { body, inputItems } = relayRequest({ model: 'm', input: [{ type: 'item_reference', id: 'msg_old' }, { id: 'msg_old' }] }, context([], stored), true);
    expect(body.input).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier' }] },
    ]);
    expect(inputItems.map((item) => item.id)).toEqual(['msg_old', 'msg_old']);
    const unknown = rejection(() => relayRequest({ model: 'm', input: [{ type: 'item_reference', id: 'msg_nope' }] }, context(), true));
    expect(unknown).toMatchObject({ kind: 'invalid_request', param: 'input[0].id' });
  });

  it('relays reasoning the gateway did not seal as it came', () => {
    const foreign = { type: 'reasoning', id: 'rs_theirs', summary: [], encrypted_content: 'gAAAA-direct' };
    expect(relayRequest({ model: 'm', input: [foreign] }, context(), true).body.input).toEqual([foreign]);
  });

  it('refuses state kept on OpenAI’s side and inputs that are not items', () => {
    expect(rejection(() => relayRequest({ model: 'm', input: 'x', conversation: 'conv_1' }, context(), true)).param).toBe('conversation');
    expect(rejection(() => relayRequest({ model: 'm', input: 42 }, context(), true)).param).toBe('input');
    expect(rejection(() => relayRequest({ model: 'm', input: ['text'] }, context(), true)).param).toBe('input[0]');
  });
});
