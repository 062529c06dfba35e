import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { ResponseItem, StoredResponse } from '../core/responses.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { StoredResponsesRepository } from '../store/stored-responses-repository.js';
import { ReasoningSeal } from './reasoning-seal.js';
import { CONVERSATION_LIMITS, ResponseState } from './response-state.js';

const DAY = 86_400;
const alice: AuthenticatedKey = { id: 'key-a1', name: 'a1', models: null, isMaster: false, accountId: 'acct-alice' };
const aliceOtherKey: AuthenticatedKey = { ...alice, id: 'key-a2', name: 'a2' };
const bob: AuthenticatedKey = { id: 'key-b1', name: 'b1', models: null, isMaster: false, accountId: 'acct-bob' };
const operator: AuthenticatedKey = { id: 'key-op', name: 'op', models: null, isMaster: false, accountId: null };
const otherOperator: AuthenticatedKey = { ...operator, id: 'key-op2' };

function message(id: string, role: string, text: string): ResponseItem {
  return { type: 'message', id, role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] };
}

function response(id: string, createdAt: number, previous?: string, extra: Partial<StoredResponse> = {}): StoredResponse {
  return {
    id,
    accountId: 'ignored',
    model: 'textmodel-a',
    createdAt,
    status: 'completed',
    ...(previous ? { previousResponseId: previous } : {}),
    inputItems: [message(`msg_in_${id}`, 'user', `question of ${id}`)],
    outputItems: [message(`msg_out_${id}`, 'assistant', `answer of ${id}`)],
    object: { id, object: 'response', status: 'completed' },
    expiresAt: 0,
    ...extra,
  };
}

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-responses-'));
      return { url: `sqlite:${join(dir, 'gengate.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

describe.each(backends)('stored responses on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let now = 1_800_000_000_000;
  let state: ResponseState;
  const t0 = now / 1000;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    state = new ResponseState({
      repository: new StoredResponsesRepository(store.db),
      seal: () => new ReasoningSeal(Buffer.alloc(32, 1)),
      retentionSeconds: 30 * DAY,
      now: () => now,
    });
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('keeps a response whole for its account, stamps its expiry from the retention, and hides it from other accounts', async () => {
    const stored = response('resp_one', t0, undefined, { object: { id: 'resp_one', text: 'nul \u0000 and emoji 🦀' } });
    await state.save(alice, stored);
    expect(await state.get(alice, 'resp_one')).toEqual({ ...stored, accountId: 'acct-alice', expiresAt: t0 + 30 * DAY });
    expect((await state.get(aliceOtherKey, 'resp_one'))?.id).toBe('resp_one');
    expect(await state.get(bob, 'resp_one')).toBeUndefined();
    expect(await state.conversation(bob, 'resp_one')).toBeUndefined();
    expect(await state.remove(bob, 'resp_one')).toBe(false);
    // Bob writing the same id does not take Alice's response over.
    await state.save(bob, response('resp_one', t0, undefined, { model: 'stolen' }));
    expect((await state.get(alice, 'resp_one'))?.model).toBe('textmodel-a');
  });

  it('keys without an account see only their own responses', async () => {
    await state.save(operator, response('resp_op', t0));
    expect((await state.get(operator, 'resp_op'))?.id).toBe('resp_op');
    expect(await state.get(otherOperator, 'resp_op')).toBeUndefined();
  });

  it('walks a conversation oldest first: each turn its input then its output', async () => {
    await state.save(alice, response('resp_c1', t0));
    await state.save(alice, response('resp_c2', t0 + 1, 'resp_c1'));
    await state.save(alice, response('resp_c3', t0 + 2, 'resp_c2'));
    const history = await state.conversation(alice, 'resp_c3');
    expect(history?.map((item) => item.id)).toEqual([
      'msg_in_resp_c1',
      'msg_out_resp_c1',
      'msg_in_resp_c2',
      'msg_out_resp_c2',
      'msg_in_resp_c3',
      'msg_out_resp_c3',
    ]);
    expect((await state.conversation(alice, 'resp_c1'))?.length).toBe(2);
  });

  it('refuses to continue a conversation whose earlier response was deleted, naming previous_response_id', async () => {
    await state.save(alice, response('resp_d1', t0));
    await state.save(alice, response('resp_d2', t0 + 1, 'resp_d1'));
    expect(await state.remove(alice, 'resp_d1')).toBe(true);
    expect(await state.remove(alice, 'resp_d1')).toBe(false);
    await expect(state.conversation(alice, 'resp_d2')).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'previous_response_id',
      message: expect.stringContaining("'resp_d1' was deleted or has expired"),
    });
  });

  it('refuses a chain longer than the bound with a 400, and accepts one that just fits', async () => {
    const max = CONVERSATION_LIMITS.maxResponses;
    for (let i = 0; i < max + 1; i++) {
      await state.save(
        alice,
        response(`resp_long_${i}`, t0, i === 0 ? undefined : `resp_long_${i - 1}`, { inputItems: [], outputItems: [message(`m${i}`, 'assistant', 'x')] }),
      );
    }
    expect((await state.conversation(alice, `resp_long_${max - 1}`))?.length).toBe(max);
    await expect(state.conversation(alice, `resp_long_${max}`)).rejects.toMatchObject({
      status: 400,
      param: 'previous_response_id',
      message: expect.stringContaining(`longer than ${max} responses`),
    });
  }, 120_000);

  it('refuses a conversation with more items than the bound', async () => {
    const many = Array.from({ length: CONVERSATION_LIMITS.maxItems / 2 + 1 }, (_, i) => message(`i${i}`, 'user', 'x'));
    await state.save(alice, response('resp_big1', t0, undefined, { inputItems: many, outputItems: [] }));
    await state.save(alice, response('resp_big2', t0, 'resp_big1', { inputItems: many, outputItems: [] }));
    expect((await state.conversation(alice, 'resp_big1'))?.length).toBe(many.length);
    await expect(state.conversation(alice, 'resp_big2')).rejects.toMatchObject({ param: 'previous_response_id', message: expect.stringContaining('items') });
  });

  it('treats ids no response can have as unknown', async () => {
    for (const id of ['', 'resp_\u0000', 'resp_\n', 'r'.repeat(300)]) {
      expect(await state.get(alice, id)).toBeUndefined();
      expect(await state.conversation(alice, id)).toBeUndefined();
      expect(await state.remove(alice, id)).toBe(false);
    }
  });

  describe('items by id (item_reference outside a conversation)', () => {
    const call: ResponseItem = { type: 'function_call', id: 'fc_items1', call_id: 'call_1', name: 'get_weather', arguments: '{}' };
    const indexRows = (responseId: string) => store.db.selectFrom('stored_response_items').select('item_id').where('response_id', '=', responseId).execute();

    it("finds any of the account's stored input and output items, without a chain, and nobody else's", async () => {
      await state.save(alice, response('resp_items1', t0, undefined, { outputItems: [call] }));
      await state.save(alice, response('resp_items2', t0 + 1));
      const found = await state.items(aliceOtherKey, ['fc_items1', 'msg_in_resp_items2', 'msg_out_resp_items2', 'fc_never']);
      expect(found).toEqual(
        new Map([
          ['fc_items1', call],
          ['msg_in_resp_items2', message('msg_in_resp_items2', 'user', 'question of resp_items2')],
          ['msg_out_resp_items2', message('msg_out_resp_items2', 'assistant', 'answer of resp_items2')],
        ]),
      );
      expect(await state.items(bob, ['fc_items1', 'msg_in_resp_items2'])).toEqual(new Map());
      await state.save(operator, response('resp_items_op', t0, undefined, { outputItems: [{ ...call, id: 'fc_op' }] }));
      expect([...(await state.items(operator, ['fc_op'])).keys()]).toEqual(['fc_op']);
      expect(await state.items(otherOperator, ['fc_op'])).toEqual(new Map());
      expect(await state.items(alice, ['', 'fc_\u0000', 'r'.repeat(300)])).toEqual(new Map());
    });

    it('gives the newest response that stored an id, tolerates an id twice in one response, and never indexes a reference', async () => {
      const first = message('msg_twice', 'user', 'first telling');
      const again = message('msg_twice', 'user', 'told again');
      await state.save(alice, response('resp_dup1', t0, undefined, { inputItems: [first], outputItems: [] }));
      await state.save(
        alice,
        response('resp_dup2', t0 + 1, undefined, { inputItems: [again, again, { type: 'item_reference', id: 'ref_only' }], outputItems: [again] }),
      );
      expect((await state.items(alice, ['msg_twice'])).get('msg_twice')).toEqual(again);
      expect(await state.items(alice, ['ref_only'])).toEqual(new Map());
      expect((await indexRows('resp_dup2')).map((row) => row.item_id)).toEqual(['msg_twice']);
    });

    it("indexes nothing for a save that could not take over another account's response id", async () => {
      await state.save(alice, response('resp_taken', t0));
      await state.save(bob, response('resp_taken', t0, undefined, { outputItems: [{ ...call, id: 'fc_bob_steal' }] }));
      expect(await state.items(bob, ['fc_bob_steal', 'msg_in_resp_taken'])).toEqual(new Map());
      expect(await state.items(alice, ['fc_bob_steal'])).toEqual(new Map());
    });

    it("forgets a response's items when it is deleted, by its owner or by the admin API", async () => {
      await state.save(alice, response('resp_gone1', t0, undefined, { outputItems: [{ ...call, id: 'fc_gone1' }] }));
      await state.save(alice, response('resp_gone2', t0, undefined, { outputItems: [{ ...call, id: 'fc_gone2' }] }));
      expect(await state.remove(alice, 'resp_gone1')).toBe(true);
      expect(await state.items(alice, ['fc_gone1'])).toEqual(new Map());
      expect(await indexRows('resp_gone1')).toEqual([]);
      const repository = new StoredResponsesRepository(store.db);
      expect(await repository.removeAny('resp_gone2', now, 'acct-alice')).toBe(true);
      expect(await state.items(alice, ['fc_gone2'])).toEqual(new Map());
      expect(await indexRows('resp_gone2')).toEqual([]);
    });

    it("treats an expired response's items as unknown, and the sweep deletes their index rows", async () => {
      await state.save(alice, response('resp_items_old', t0 - 31 * DAY, undefined, { outputItems: [{ ...call, id: 'fc_old' }] }));
      expect(await state.items(alice, ['fc_old'])).toEqual(new Map());
      expect(await indexRows('resp_items_old')).toHaveLength(2);
      expect(await state.sweep()).toBe(1);
      expect(await indexRows('resp_items_old')).toEqual([]);
    });
  });

  it('forgets a response once it expires, and the sweep deletes it', async () => {
    await state.save(alice, response('resp_old', t0 - 31 * DAY));
    await state.save(alice, response('resp_young', t0 - 29 * DAY));
    expect(await state.get(alice, 'resp_old')).toBeUndefined();
    expect(await state.conversation(alice, 'resp_old')).toBeUndefined();
    expect((await state.get(alice, 'resp_young'))?.id).toBe('resp_young');
    const before = await store.db.selectFrom('stored_responses').select('id').where('id', '=', 'resp_old').execute();
    expect(before).toHaveLength(1);
    expect(await state.sweep()).toBe(1);
    expect(await store.db.selectFrom('stored_responses').select('id').where('id', 'in', ['resp_old', 'resp_young']).execute()).toEqual([{ id: 'resp_young' }]);
    now += 2 * DAY * 1000;
    expect(await state.get(alice, 'resp_young')).toBeUndefined();
  });

  it('seals and opens reasoning through the service', () => {
    const sealed = state.seal({ provider: 'anthropic', signature: 's', text: 't' });
    expect(state.open(sealed)).toEqual({ provider: 'anthropic', signature: 's', text: 't' });
    expect(state.open(`${sealed.slice(0, -5)}AAAAA`)).toBeUndefined();
  });
});
