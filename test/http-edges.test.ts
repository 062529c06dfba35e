/**
 * Issue 8, findings 5–8: what the gateway answers at the edges of HTTP — slow clients, deeply
 * nested bodies, huge echoed values, and requests it cannot route or parse — through real
 * sockets against a running gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from './helpers/json-bodies.js';
import { rawHttp } from './helpers/raw-http.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;
let slow: RunningGateway;
let lenient: RunningGateway;

beforeAll(async () => {
  [gw, slow, lenient] = await Promise.all([
    startGateway({ bodyLimitBytes: 3 * 1024 * 1024 }),
    startGateway({ server: { headersTimeoutMs: 300, requestTimeoutMs: 600 }, sandbox: { tokensPerSecond: 20 } }),
    // Depth check raised far beyond the default, to show the error messages themselves stay bounded.
    startGateway({ server: { maxBodyDepth: 50_000 } }),
  ]);
});
afterAll(() => Promise.all([gw?.close(), slow?.close(), lenient?.close()]));

type Family = 'openai' | 'anthropic' | 'gemini' | 'imagegen2';

/** Asserts the body is an error in the family's own shape and returns its message. */
function expectShape(family: Family, body: unknown): string {
  const json = body as ErrorBody;
  switch (family) {
    case 'openai':
      expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
      return json.error.message;
    case 'anthropic':
      expect(json.type).toBe('error');
      expect(typeof json.error.type).toBe('string');
      expect(typeof json.request_id).toBe('string');
      return json.error.message;
    case 'gemini':
      expect(typeof json.error.code).toBe('number');
      expect(typeof json.error.status).toBe('string');
      return json.error.message;
    case 'imagegen2':
      expect(Object.keys(body as object)).toEqual(['detail']);
      return (body as { detail: string }).detail;
  }
}

async function post(
  base: RunningGateway,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; length: number }> {
  const res = await fetch(`${base.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), length: text.length };
}

const auth = {
  openai: (g: RunningGateway) => ({ authorization: `Bearer ${g.key}` }),
  anthropic: (g: RunningGateway) => ({ 'x-api-key': g.key, 'anthropic-version': '2023-06-01' }),
  gemini: (g: RunningGateway) => ({ 'x-goog-api-key': g.key }),
  imagegen2: (g: RunningGateway) => ({ 'api-key': g.key, authorization: `Bearer ${g.key}` }),
};

/** JSON text of a value nested `depth` deep (built as text: JSON.stringify itself would overflow the stack). */
function nestedJson(depth: number): string {
  return `${'[{"a":'.repeat(depth / 2)}"x"${'}]'.repeat(depth / 2)}`;
}

const DEEP = '"__DEEP__"';
const ONE_PIXEL_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('finding 5: slow clients are cut off while sending the request', () => {
  it('finding 5: partial headers are closed within the headers timeout, with a 408', async () => {
    const answer = await rawHttp(slow.url, ['POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n'], 5_000);
    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(2_000);
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expectShape('openai', answer.json);
  });

  it('finding 5: a body announced as 100 bytes that sends 6 is closed with a 408 in the surface’s shape', async () => {
    // With a valid key: the key is checked on the headers, so only an authorised body is waited for.
    const head = (path: string, key: string) =>
      `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${key}\r\ncontent-length: 100\r\n\r\n{"a":1`;
    const anthropic = await rawHttp(slow.url, [head('/v1/messages', `x-api-key: ${slow.key}`)], 5_000);
    expect(anthropic.closedByServer).toBe(true);
    expect(anthropic.elapsedMs).toBeLessThan(2_000);
    expect(anthropic.status).toBe(408);
    expectShape('anthropic', anthropic.json);
    const gemini = await rawHttp(slow.url, [head('/v1beta/models/textmodel-c-2.5-flash:generateContent', `x-goog-api-key: ${slow.key}`)], 5_000);
    expect(gemini.status).toBe(408);
    expectShape('gemini', gemini.json);
  });

  it('finding 5: a body that stops arriving is cut after the body idle timeout, long before the request deadline', async () => {
    const idle = await startGateway({ server: { bodyIdleTimeoutMs: 300, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 } });
    try {
      const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${idle.key}\r\ncontent-length: 100\r\n\r\n{"a":1`;
      const answer = await rawHttp(idle.url, [head], 5_000);
      expect(answer.closedByServer).toBe(true);
      expect(answer.elapsedMs).toBeLessThan(2_000);
      // A body that keeps arriving is not cut, and the answer after it is not either.
      const res = await fetch(`${idle.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${idle.key}` },
        body: JSON.stringify({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
    } finally {
      await idle.close();
    }
  });

  it('finding 5: a connection that sends nothing is closed', async () => {
    const answer = await rawHttp(slow.url, [], 5_000);
    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(2_000);
  });

  it('finding 5: a stream answer longer than the request timeout is not cut', async () => {
    const started = Date.now();
    const res = await fetch(`${slow.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth.openai(slow) },
      body: JSON.stringify({ model: 'textmodel-b-4o', stream: true, max_tokens: 40, messages: [{ role: 'user', content: 'Tell me a long story.' }] }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Date.now() - started).toBeGreaterThan(1_200);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('finding 6: deeply nested values', () => {
  const deep = '__DEEP__';
  const deepText = nestedJson(5_000);
  const cases: Array<{ field: string; family: Family; path: string; body: unknown }> = [
    { field: 'messages[].role', family: 'openai', path: '/v1/chat/completions', body: { model: 'textmodel-b-4o', messages: [{ role: deep, content: 'hi' }] } },
    {
      field: 'tools[].type',
      family: 'openai',
      path: '/v1/chat/completions',
      body: { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: deep, function: { name: 'f' } }] },
    },
    {
      field: 'response_format',
      family: 'openai',
      path: '/v1/chat/completions',
      body: { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }], response_format: { type: deep } },
    },
    { field: 'encoding_format', family: 'openai', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hi', encoding_format: deep } },
    { field: 'input', family: 'openai', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: [[deep]] } },
    {
      field: 'taskType',
      family: 'gemini',
      path: '/v1beta/models/gemini-embedding-001:embedContent',
      body: { content: { parts: [{ text: 'hi' }] }, taskType: deep },
    },
    {
      field: 'contents[].role',
      family: 'gemini',
      path: '/v1beta/models/textmodel-c-2.5-flash:generateContent',
      body: { contents: [{ role: deep, parts: [{ text: 'hi' }] }] },
    },
    {
      field: 'messages[].role (Anthropic)',
      family: 'anthropic',
      path: '/v1/messages',
      body: { model: 'textmodel-a-sonnet-4-20250514', max_tokens: 10, messages: [{ role: deep, content: 'hi' }] },
    },
  ];

  for (const { field, family, path, body } of cases) {
    it(`finding 6: ${field} nested 5,000 deep is refused with 400 before parsing`, async () => {
      const res = await post(gw, path, JSON.stringify(body).replace(DEEP, deepText), auth[family](gw));
      expect(res.status).toBe(400);
      expect(expectShape(family, res.json)).toContain('nested more than 256 levels');
    });

    it(`finding 6: ${field} nested 5,000 deep gets a bounded 400 even with the depth check raised`, async () => {
      const res = await post(lenient, path, JSON.stringify(body).replace(DEEP, deepText), auth[family](lenient));
      expect(res.status).toBe(400);
      const message = expectShape(family, res.json);
      expect(message).toContain('got [{"a":[…1 items]}]');
      expect(message.length).toBeLessThan(600);
      expect(res.length).toBeLessThan(2_000);
    });
  }

  it('finding 6: a tool schema nested 40 levels deep is accepted', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) schema = { type: 'object', properties: { inner: schema } };
    const res = await post(
      gw,
      '/v1/chat/completions',
      JSON.stringify({
        model: 'textmodel-b-4o',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'f', parameters: schema } }],
      }),
      auth.openai(gw),
    );
    expect(res.status).toBe(200);
  });
});

describe('finding 7: echoed values are truncated', () => {
  const huge = 'm'.repeat(1_000_000);
  const cases: Array<{ family: Family; path: string; body: unknown }> = [
    { family: 'openai', path: '/v1/chat/completions', body: { model: huge, messages: [{ role: 'user', content: 'hi' }] } },
    { family: 'openai', path: '/v1/embeddings', body: { model: huge, input: 'hi' } },
    { family: 'openai', path: '/v1/images/generations', body: { model: huge, prompt: 'a cat' } },
    { family: 'anthropic', path: '/v1/messages', body: { model: huge, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } },
    {
      family: 'gemini',
      path: '/v1beta/models/text-embedding-004:batchEmbedContents',
      body: { requests: [{ model: `models/${huge}`, content: { parts: [{ text: 'hi' }] } }] },
    },
    { family: 'imagegen2', path: '/imagegen2/remix', body: { model: huge, prompt: 'a cat', image: ONE_PIXEL_PNG } },
  ];
  for (const { family, path, body } of cases) {
    it(`finding 7: a 1 MB model id on ${path} is echoed in at most a few hundred characters`, async () => {
      const res = await post(gw, path, JSON.stringify(body), auth[family](gw));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const message = expectShape(family, res.json);
      // Named, truncated, or refused for its length: never echoed whole.
      expect(message).toMatch(/mmmm|model/);
      expect(res.length).toBeLessThan(4_000);
    });
  }

  it('finding 7: a 1 MB model id in a Gemini path gets a small 431 in Gemini’s shape', async () => {
    const answer = await rawHttp(gw.url, [`POST /v1beta/models/${huge}:generateContent HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}`]);
    expect(answer.status).toBe(431);
    expectShape('gemini', answer.json);
    expect(answer.body.length).toBeLessThan(1_000);
  });

  it('finding 7: a long unknown path is echoed truncated in the 404', async () => {
    const res = await fetch(`${gw.url}/nothing/${'p'.repeat(10_000)}`);
    expect(res.status).toBe(404);
    const json = await res.json();
    expect(expectShape('openai', json)).toContain('(10009 characters)');
    expect(JSON.stringify(json).length).toBeLessThan(1_000);
  });
});

describe('finding 8: errors at the edges answer in the family of the path', () => {
  const unknown: Array<{ family: Family; path: string }> = [
    { family: 'openai', path: '/v1/nothing' },
    { family: 'anthropic', path: '/v1/messages/nothing' },
    { family: 'gemini', path: '/v1beta/nothing' },
    { family: 'imagegen2', path: '/imagegen2/nothing' },
  ];
  for (const { family, path } of unknown) {
    it(`finding 8: malformed JSON on unknown route ${path}`, async () => {
      const res = await post(gw, path, '{"a":');
      expect(res.status).toBe(400);
      expect(expectShape(family, res.json)).toContain('malformed JSON');
    });

    it(`finding 8: an over-limit body on unknown route ${path}`, async () => {
      const res = await post(gw, path, JSON.stringify({ a: 'x'.repeat(4 * 1024 * 1024) }));
      expect(res.status).toBe(413);
      expectShape(family, res.json);
    });
  }

  it('finding 8: headers over 16 KB get 431 in the family’s shape, connection closed', async () => {
    const answer = await rawHttp(gw.url, [`POST /v1/messages HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(answer.closedByServer).toBe(true);
    expect(answer.status).toBe(431);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['content-type']).toContain('application/json');
    expectShape('anthropic', answer.json);
  });

  const framing: Array<{ name: string; family: Family; request: string }> = [
    {
      name: 'a negative content-length',
      family: 'gemini',
      request: 'POST /v1beta/models/gemini-2.5-flash:generateContent HTTP/1.1\r\nhost: x\r\ncontent-length: -1\r\n\r\n',
    },
    {
      name: 'bad chunked encoding',
      family: 'imagegen2',
      request: 'POST /imagegen2/remix HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n',
    },
    { name: 'a NUL in a header', family: 'openai', request: 'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nx-a: a\0b\r\ncontent-length: 2\r\n\r\n{}' },
    {
      name: 'content-length with transfer-encoding',
      family: 'anthropic',
      request: 'POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    },
  ];
  for (const { name, family, request } of framing) {
    it(`finding 8: ${name} gets 400 in the ${family} shape, connection closed`, async () => {
      const answer = await rawHttp(gw.url, [request]);
      expect(answer.closedByServer).toBe(true);
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
      expectShape(family, answer.json);
    });
  }

  it('finding 8: an over-long path segment gets 414 in the family’s shape', async () => {
    const gemini = await fetch(`${gw.url}/v1beta/models/${'g'.repeat(300)}:generateContent`, { method: 'POST', body: '{}' });
    expect(gemini.status).toBe(414);
    expectShape('gemini', await gemini.json());
    const openai = await fetch(`${gw.url}/v1/models/${'g'.repeat(300)}`);
    expect(openai.status).toBe(414);
    expectShape('openai', await openai.json());
  });

  it('finding 8: bad percent-encoding in the path gets 400 in the family’s shape', async () => {
    const gemini = await rawHttp(gw.url, [
      'POST /v1beta/models/%E0%A4%A:generateContent HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
    ]);
    expect(gemini.status).toBe(400);
    expectShape('gemini', gemini.json);
    const anthropic = await rawHttp(gw.url, ['GET /v1/messages/%zz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n']);
    expect(anthropic.status).toBe(400);
    expectShape('anthropic', anthropic.json);
  });

  it('finding 8: POST /v1/models/{id} answers in the caller’s dialect', async () => {
    const openai = await fetch(`${gw.url}/v1/models/textmodel-b-4o`, { method: 'POST', headers: auth.openai(gw), body: '' });
    expect(openai.status).toBe(405);
    expect(openai.headers.get('allow')).toBe('GET, HEAD');
    expect(expectShape('openai', await openai.json())).toContain('use GET');
    const anthropic = await fetch(`${gw.url}/v1/models/textmodel-b-4o`, { method: 'POST', headers: auth.anthropic(gw) });
    expect(anthropic.status).toBe(405);
    expectShape('anthropic', await anthropic.json());
    const gemini = await post(gw, '/v1/models/gemini-2.5-flash:noSuchAction', '{}', auth.gemini(gw));
    expect(gemini.status).toBe(404);
    expectShape('gemini', gemini.json);
  });
});
