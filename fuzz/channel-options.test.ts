/**
 * Hostile channel `options` on the admin API's channel create and change (the fuzz suite's
 * routes `admin channel create (with options)` and `admin channel options change` get them among
 * all the others; here every case goes to them): the suite's hostile values (deep nesting, huge
 * strings and arrays, many keys, wrong types, odd strings) as one option's value or as the whole
 * `options`. Never a 5xx, always the admin error shape; a declared option (Bedrock's `region`)
 * given anything but a region or `null` is a 400 naming it (or refused whole: past the body limit,
 * 413, or nested past the server's depth limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../test/helpers/start-gateway.js';
import { errorShapeProblem } from './error-shapes.js';
import { hostileValue } from './hostile-values.js';
import { caseSeed, Random } from './random.js';
import { ROUTES } from './routes.js';

const MASTER = 'gg-master-fuzz-options-0123456789';
const SEED = 20261128;
const CASES = 160;
const MAX_VALUE_BYTES = 200_000;
const PLACEHOLDER = '"\u0001OPTION\u0001"';
const EXISTING = 'fuzz-options-target';

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway({ masterKey: MASTER });
  const created = await send('POST', '/admin/v1/channels', JSON.stringify({ ...createBody(), name: EXISTING }));
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await gw?.close();
});

function createBody(): Record<string, unknown> {
  const route = ROUTES.find((r) => r.name === 'admin channel create (with options)');
  if (!route?.body) throw new Error('the fuzz routes lost the channel-options create route');
  return { ...route.body(), provider: 'bedrock' };
}

async function send(method: string, path: string, body: string): Promise<{ status: number; text: string; contentType?: string }> {
  const response = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') ?? undefined };
}

describe('hostile channel options on the admin API', () => {
  it(`answers ${CASES} hostile options without a 5xx, in the admin shape, refusing a bad declared option`, async () => {
    const problems: string[] = [];
    for (let index = 0; index < CASES; index++) {
      const random = new Random(caseSeed(SEED, index));
      const value = hostileValue(random, MAX_VALUE_BYTES);
      const slot = random.pick(['region', 'streamUsage', 'whole'] as const);
      const change = random.chance(0.5);
      const options = slot === 'whole' ? PLACEHOLDER : `{"pollIntervalMs":250,${JSON.stringify(slot)}:${PLACEHOLDER}}`;
      const body = change ? `{"options":${options}}` : JSON.stringify({ ...createBody(), options: '@' }).replace('"@"', options);
      const answer = await send(
        change ? 'PATCH' : 'POST',
        change ? `/admin/v1/channels/${EXISTING}` : '/admin/v1/channels',
        body.replace(PLACEHOLDER, () => value.text),
      );
      const what = `case ${index} (${change ? 'change' : 'create'}, ${slot} ← ${value.kind}: ${value.text.slice(0, 40)})`;
      if (answer.status >= 500) problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
      if (answer.status >= 400) {
        const shape = errorShapeProblem('admin', answer.status, answer.contentType, answer.text);
        if (shape) problems.push(`${what}: ${shape}`);
      }
      // 413: past the body limit; a nesting past the server's depth limit is refused before any route reads it.
      if (slot === 'region' && value.text !== 'null' && answer.status !== 400 && answer.status !== 413)
        problems.push(`${what}: a bad region answered ${answer.status}`);
      const refusedAsBody = answer.status === 413 || /nest|deep|depth/i.test(answer.text);
      if (slot === 'region' && answer.status === 400 && !refusedAsBody && !answer.text.includes('options'))
        problems.push(`${what}: the 400 does not name the options`);
    }
    expect(problems).toEqual([]);
    // Still whole: the target channel answers and lists.
    const listed = await fetch(`${gw.url}/admin/v1/channels`, { headers: { authorization: `Bearer ${MASTER}` } });
    expect(listed.status).toBe(200);
  }, 120_000);
});
