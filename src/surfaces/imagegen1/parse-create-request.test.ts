import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseCreateRequest } from './parse-create-request.js';

const acceptAll = () => undefined;
const MODEL = 'black-forest-labs/flux-schnell';

function refusal(body: unknown): GatewayError {
  try {
    parseCreateRequest(body, acceptAll);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseCreateRequest', () => {
  it('reads the flat shape, defaulting num_outputs to 1 and relaying extra scalar inputs', () => {
    expect(parseCreateRequest({ model: MODEL, prompt: 'a fox', output_format: 'webp', go_fast: true, guidance: 2 }, acceptAll)).toEqual({
      request: { model: MODEL, prompt: 'a fox', count: 1, options: { output_format: 'webp', go_fast: true, guidance: 2 } },
    });
  });

  it('reads Replicate’s {input} shape and takes the model from model + version or from version alone', () => {
    const input = { prompt: 'a fox', width: 1024, num_outputs: 4 };
    expect(parseCreateRequest({ model: 'acme/m', version: 'abc123', input }, acceptAll).request).toEqual({
      model: 'acme/m:abc123',
      prompt: 'a fox',
      width: 1024,
      count: 4,
    });
    expect(parseCreateRequest({ version: 'acme/m:abc123', input }, acceptAll).request.model).toBe('acme/m:abc123');
    expect(parseCreateRequest({ model: 'acme/m:abc123', version: 'abc123', input }, acceptAll).request.model).toBe('acme/m:abc123');
  });

  it('refuses field errors with 422 naming the field, and a body that is not an object with 400', () => {
    const cases: Array<[unknown, number, string | undefined, string]> = [
      [{ version: 'abc123', input: { prompt: 'p' } }, 422, 'model', 'model: is required; a bare version id does not name a model'],
      [{ model: 'acme/m:v1', version: 'v2', prompt: 'p' }, 422, 'version', 'version: differs from the version given in model; give it in one place'],
      [{ model: MODEL, input: { prompt: 'p' }, prompt: 'q' }, 422, 'prompt', 'prompt: give model inputs either at the top level or inside "input", not both'],
      [{ model: MODEL, input: { prompt: 'p', num_outputs: 9 } }, 422, 'input.num_outputs', 'input.num_outputs: must be ≤ 4, got 9'],
      [{ model: MODEL, input: 'p' }, 422, 'input', 'input: expected an object, got a string'],
      [{ model: MODEL, prompt: 'p', 'Bad-Name': 1 }, 422, 'Bad-Name', 'Bad-Name: is not a model input name (lower-case snake_case, at most 64 characters)'],
      [{ model: MODEL, prompt: 'p', __proto__x: 1 }, 422, '__proto__x', '__proto__x: is not a model input name (lower-case snake_case, at most 64 characters)'],
      [{ model: MODEL, prompt: 'p', note: 'x'.repeat(4_097) }, 422, 'note', 'note: must be at most 4096 characters, got 4097'],
      [{ model: MODEL, prompt: 'p', tags: ['a'] }, 422, 'tags', 'tags: only string, number and boolean model inputs are accepted, got an array'],
      [{ model: MODEL, prompt: 'p', stream: 'yes' }, 422, 'stream', 'stream: expected a boolean, got a string'],
      [
        { model: MODEL, prompt: 'p', webhook_events_filter: ['done'] },
        422,
        'webhook_events_filter[0]',
        'webhook_events_filter[0]: must be one of "start", "output", "logs", "completed", got "done"',
      ],
      [[{ model: MODEL }], 400, undefined, 'the request body must be a JSON object'],
    ];
    for (const [body, status, param, message] of cases) {
      const error = refusal(body);
      expect({ status: error.status, param: error.param, message: error.message }).toEqual({ status, param, message });
    }
  });

  it('bounds the number of extra inputs', () => {
    const body: Record<string, unknown> = { model: MODEL, prompt: 'p' };
    for (let i = 0; i < 32; i++) body[`extra_${i}`] = i;
    expect(Object.keys(parseCreateRequest(body, acceptAll).request.options ?? {})).toHaveLength(32);
    body.extra_32 = 32;
    expect(refusal(body).message).toBe('body: at most 32 model inputs besides the prompt, size, count and seed are accepted');
  });

  it('checks the webhook and registers it unless the events filter leaves out "completed"', () => {
    const checked: Array<[string, string]> = [];
    const check = (url: string, param: string) => {
      checked.push([url, param]);
    };
    const hook = 'https://client.example/h';
    expect(parseCreateRequest({ model: MODEL, prompt: 'p', webhook: hook }, check).callback).toEqual({ url: hook });
    expect(parseCreateRequest({ model: MODEL, prompt: 'p', webhook: hook, webhook_events_filter: ['start', 'completed'] }, check).callback).toEqual({
      url: hook,
    });
    expect(parseCreateRequest({ model: MODEL, prompt: 'p', webhook: hook, webhook_events_filter: ['logs'] }, check).callback).toBeUndefined();
    expect(checked).toEqual([
      [hook, 'webhook'],
      [hook, 'webhook'],
      [hook, 'webhook'],
    ]);
    const refused = () => {
      throw new GatewayError('invalid_request', 'webhook points to a private or loopback address', { param: 'webhook', code: 'invalid_callback_url' });
    };
    let error: unknown;
    try {
      parseCreateRequest({ model: MODEL, prompt: 'p', webhook: 'http://127.0.0.1/' }, refused);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ status: 422, param: 'webhook', code: 'invalid_callback_url' });
  });
});
