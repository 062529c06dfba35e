/** Where and how an Ideogram channel is called: multipart POSTs to its 3.0 endpoints, `Api-Key` header. */
import type { IdeogramImageResponse } from '../../core/wire/ideogram-types.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { mapIdeogramError } from './map-ideogram-error.js';

type IdeogramV3Endpoint = 'generate' | 'remix' | 'edit';

function ideogramV3Url(channel: ChannelConfig, endpoint: IdeogramV3Endpoint): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}/v1/ideogram-v3/${endpoint}`;
}

/** The form encoded as multipart/form-data bytes, with the content type naming its boundary. */
async function encodeMultipart(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType };
}

/** POSTs the form; resolves with Ideogram's answer, throws the mapped upstream error otherwise. */
export async function postIdeogramForm(endpoint: IdeogramV3Endpoint, form: FormData, attempt: Attempt): Promise<IdeogramImageResponse> {
  const { channel } = attempt;
  const { body, contentType } = await encodeMultipart(form);
  const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/json' };
  if (channel.apiKey) headers['api-key'] = channel.apiKey;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  const response = await sendUpstream({
    url: ideogramV3Url(channel, endpoint),
    headers,
    body,
    signal: attempt.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapIdeogramError(response.status, await readErrorText(response.body), response.headers);
  }
  return readJson<IdeogramImageResponse>(response.body);
}
