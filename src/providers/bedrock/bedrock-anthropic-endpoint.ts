/**
 * The Anthropic adapter pointed at Bedrock (`InvokeModel` / `InvokeModelWithResponseStream`, as
 * Anthropic's Bedrock documentation gives them): `/model/<id>/invoke` and
 * `/invoke-with-response-stream`, the Messages body without `model` and `stream` (the path says
 * both) and with `anthropic_version: bedrock-2023-05-31`, a client's `anthropic-beta` header as
 * the body's `anthropic_beta` list; authenticated as bedrock-auth.ts says. The streamed answer's event-stream frames are
 * turned back into Anthropic SSE; errors are read in Bedrock's shape.
 */
import type { AnthropicEndpoint } from '../anthropic/anthropic-request.js';
import { readErrorText, type UpstreamResponse } from '../shared/upstream-http.js';
import { bedrockModelUrl, sendSigned } from './bedrock-target.js';
import { invokeStreamToSse } from './invoke-stream-to-sse.js';
import { mapBedrockError } from './map-bedrock-error.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

export const BEDROCK_ANTHROPIC_ENDPOINT: AnthropicEndpoint = {
  url: (attempt, stream) => bedrockModelUrl(attempt, stream ? 'invoke-with-response-stream' : 'invoke'),
  headers: (attempt) => ({ ...attempt.channel.headers, 'content-type': 'application/json', accept: 'application/json' }),
  body: ({ model: _model, stream: _stream, ...body }, clientHeaders = {}) => {
    const beta = clientHeaders['anthropic-beta']
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body, ...(beta && beta.length > 0 ? { anthropic_beta: beta } : {}) };
  },
  async send(attempt, { url, headers, body, stream }): Promise<UpstreamResponse> {
    const response = await sendSigned(attempt, url, stream ? { ...headers, accept: 'application/vnd.amazon.eventstream' } : headers, body);
    if (response.status < 200 || response.status >= 300) {
      throw mapBedrockError(response.status, await readErrorText(response.body), response.headers);
    }
    if (!stream) return response;
    const sse = invokeStreamToSse(response.body);
    return {
      status: response.status,
      headers: { ...response.headers, 'content-type': 'text/event-stream' },
      // Read only as a byte stream (SSE decoding, the pass-through tap), never with `text()`.
      body: sse as unknown as UpstreamResponse['body'],
    };
  },
};
