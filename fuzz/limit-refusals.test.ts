/**
 * The 429 paths of every route (issue 26): with a key whose requests-per-minute limit is used
 * up, each route with a JSON body that admits a call (multipart ones, imagegen2's, are not sent here) answers its valid request with a refusal in its own family's
 * error shape (the fuzz suite's checkers), with `Retry-After`, and never a 5xx; routes that run
 * no call (lookups, token counts) answer as they would without the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/key-admin.js';
import { FakeCounterStore, StaticRuleSource } from '../test/helpers/fake-counter-store.js';
import { type RunningGateway, startGateway } from '../test/helpers/start-gateway.js';
import { errorShapeProblem } from './error-shapes.js';
import { keyHeaders } from './generate-case.js';
import { ROUTES } from './routes.js';

let gw: RunningGateway;
let key = '';
const rules = new StaticRuleSource();

beforeAll(async () => {
  gw = await startGateway({ admission: { rules, counters: new FakeCounterStore() }, sandbox: { taskMs: 100 } });
  const created = await createApiKey(gw.gateway.keys, { name: 'limited' });
  key = created.key;
  rules.set({ limits: [{ scope: 'key', subject: created.record.id, kind: 'requests_per_minute', limit: 1 }] });
  // The one request of the minute.
  const warm = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(warm.status).toBe(200);
});
afterAll(async () => {
  await gw.close();
});

describe('limit refusals on every route', () => {
  it('each admitting route refuses in its family shape with Retry-After, no 5xx', async () => {
    const refusedFamilies = new Set<string>();
    const problems: string[] = [];
    for (const route of ROUTES) {
      if (route.method !== 'POST' || !route.body || route.multipart || route.family === 'admin' || route.family === 'none') continue;
      const place = route.keyPlaces[0];
      const auth = keyHeaders(place, key);
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const url = `${gw.url}${auth.query ? `${path}${path.includes('?') ? '&' : '?'}${auth.query}` : path}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...auth.headers, 'content-type': 'application/json' },
        body: JSON.stringify(route.body()),
      });
      const text = await response.text();
      if (response.status >= 500) problems.push(`${route.name}: ${response.status} ${text.slice(0, 200)}`);
      if (response.status !== 429) continue;
      refusedFamilies.add(route.family);
      const shape = errorShapeProblem(route.family, 429, response.headers.get('content-type') ?? undefined, text);
      if (shape) problems.push(`${route.name}: ${shape}`);
      if (!(Number(response.headers.get('retry-after')) >= 1)) problems.push(`${route.name}: no Retry-After`);
      if (!text.includes('key requests per minute (1)')) problems.push(`${route.name}: the refusal does not name the limit`);
    }
    expect(problems).toEqual([]);
    expect([...refusedFamilies].sort()).toEqual(expect.arrayContaining(['anthropic', 'gemini', 'imagegen1', 'imgtask', 'openai', 'videogen1', 'videogen3']));
  }, 60_000);
});
