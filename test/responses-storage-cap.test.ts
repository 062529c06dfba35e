/**
 * An account's stored responses are capped (`responses.maxStoredMiBPerAccount`): past the cap a
 * request that would store one more is the client's 400 naming `store`, before any upstream is
 * called (the check is made at admission), while `store: false` still answers and other accounts are not affected.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const MODEL = 'textmodel-a-sonnet-4-20250514';

describe('the per-account cap on stored responses', () => {
  let gw: RunningGateway;
  let alice: OpenAI;
  let bob: OpenAI;

  beforeAll(async () => {
    gw = await startGateway({ responses: { maxStoredMiBPerAccount: 1 }, key: { name: 'alice', accountId: 'acct-alice' } });
    alice = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    bob = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: await gw.createKey({ name: 'bob', accountId: 'acct-bob' }), maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it('refuses a stored response past the cap with a 400 naming store; store: false and other accounts still work', async () => {
    // Two inputs of 600 KB each: the account keeps more than 1 MiB after them.
    const big = 'lorem ipsum '.repeat(50_000);
    await alice.responses.create({ model: MODEL, input: big });
    await alice.responses.create({ model: MODEL, input: big });
    const refused = await alice.responses.create({ model: MODEL, input: 'one more' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const error = refused as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error.param).toBe('store');
    expect(error.code).toBe('stored_responses_limit_reached');
    expect(error.message).toMatch(/1 MiB of stored responses/);
    await expect(alice.responses.create({ model: MODEL, input: 'in the background', background: true })).rejects.toBeInstanceOf(OpenAI.BadRequestError);

    const unstored = await alice.responses.create({ model: MODEL, input: 'not kept', store: false });
    expect(unstored.status).toBe('completed');
    const other = await bob.responses.create({ model: MODEL, input: 'bob keeps this' });
    expect((await bob.responses.retrieve(other.id)).id).toBe(other.id);
  });
});
