import { describe, expect, it } from 'vitest';
import type { SealedReasoning } from '../../core/responses.js';
import { RelayedAnswer } from './relay-answer.js';

function answer(include: string[] = []) {
  const sealed: SealedReasoning[] = [];
  const relayed = new RelayedAnswer({
    responseId: 'resp_gateway',
    model: 'public-model',
    previousResponseId: 'resp_before',
    store: true,
    include,
    seal: (reasoning) => {
      sealed.push(reasoning);
      return `sealed-${sealed.length}`;
    },
  });
  return { relayed, sealed };
}

const UPSTREAM_RESPONSE = {
  id: 'resp_upstream',
  object: 'response',
  model: 'gpt-4o-2025',
  store: false,
  previous_response_id: null,
  output: [
    { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'gAAAA-own' },
    { id: 'msg_up', type: 'message', role: 'assistant', content: [] },
  ],
  usage: { input_tokens: 3 },
};

describe('RelayedAnswer', () => {
  it('gives the response and its items the gateway’s ids, the same upstream id always the same one', () => {
    const { relayed, sealed } = answer();
    const added = relayed.event({ type: 'response.output_item.added', sequence_number: 4, output_index: 1, item: { id: 'msg_up', type: 'message' } });
    const delta = relayed.event({ type: 'response.output_text.delta', sequence_number: 5, item_id: 'msg_up', delta: 'Hi' });
    const { object, outputItems } = relayed.object(UPSTREAM_RESPONSE);
    const itemId = (added.item as { id: string }).id;
    expect(itemId).toMatch(/^msg_[0-9a-f]{48}$/);
    expect(delta).toEqual({ type: 'response.output_text.delta', sequence_number: 5, item_id: itemId, delta: 'Hi' });
    expect(outputItems[1].id).toBe(itemId);
    expect(object).toMatchObject({ id: 'resp_gateway', model: 'public-model', store: true, previous_response_id: 'resp_before', usage: { input_tokens: 3 } });
    expect(outputItems[0]).toMatchObject({ id: expect.stringMatching(/^rs_/), encrypted_content: 'sealed-1' });
    expect(sealed).toEqual([{ provider: 'openai', encrypted: 'gAAAA-own', itemId: 'rs_up' }]);
  });

  it('seals one reasoning once, however often it is shown', () => {
    const { relayed, sealed } = answer();
    relayed.event({ type: 'response.output_item.done', item: UPSTREAM_RESPONSE.output[0] });
    relayed.object(UPSTREAM_RESPONSE);
    expect(sealed).toHaveLength(1);
  });

  it('shows the client sealed reasoning only when include asks for it', () => {
    const hidden = answer();
    const full = hidden.relayed.event({ type: 'response.completed', response: UPSTREAM_RESPONSE });
    expect(JSON.stringify(hidden.relayed.forClient(full))).not.toContain('encrypted_content');
    expect(JSON.stringify(full)).toContain('sealed-1');
    const shown = answer(['reasoning.encrypted_content']);
    expect(JSON.stringify(shown.relayed.forClient(shown.relayed.event({ type: 'response.completed', response: UPSTREAM_RESPONSE })))).toContain('sealed-1');
  });
});
