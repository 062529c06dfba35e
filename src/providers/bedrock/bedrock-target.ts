/**
 * Where a Bedrock runtime call goes and how it is authenticated. The endpoint is
 * `https://bedrock-runtime.<region>.amazonaws.com` (a channel's `baseUrl` other than the default
 * replaces it), the model id (or a cross-region inference profile id such as
 * `us.anthropic.claude-sonnet-4-5-20250929-v1:0`, or an ARN) one percent-encoded path segment:
 * `/model/<id>/<action>`. A Bedrock API key goes as `Authorization: Bearer <key>`; AWS keys sign
 * the request with Signature Version 4 (service `bedrock`) by the AWS SDK's signer, whose default
 * double-encodes the path as AWS does for every service but S3 (which credential is used:
 * bedrock-auth.ts). Region: the channel option `region`, else `AWS_REGION` / `AWS_DEFAULT_REGION`;
 * an API key needs it only to reach the default endpoint.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { GatewayError } from '../../core/errors.js';
import { sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { type AwsCredentials, authOf, misconfigured } from './bedrock-auth.js';
import { BEDROCK_DEFAULT_BASE_URL } from './bedrock-default-url.js';
import { AWS_REGION } from './bedrock-options.js';

/** Model ids, inference profile ids and ARNs as AWS spells them; anything else never reaches a URL. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/+-]{0,2047}$/;

export function regionOf(channel: ChannelConfig, env: NodeJS.ProcessEnv = process.env): string {
  const region = channel.options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (typeof region !== 'string' || !AWS_REGION.test(region)) {
    throw misconfigured(channel, 'option region (or AWS_REGION) must be an AWS region such as us-east-1');
  }
  return region;
}

/** `<endpoint>/model/<encoded model id>/<action>`. */
export function bedrockModelUrl(attempt: Attempt, action: string): string {
  const { channel, upstreamModel } = attempt;
  if (!MODEL_ID.test(upstreamModel)) {
    throw new GatewayError('invalid_request', 'the model id is not a Bedrock model id, inference profile id or ARN', { code: 'invalid_model' });
  }
  const base = channel.baseUrl.replace(/\/+$/, '');
  const endpoint = base === BEDROCK_DEFAULT_BASE_URL ? `https://bedrock-runtime.${regionOf(channel)}.amazonaws.com` : base;
  return `${endpoint}/model/${encodeURIComponent(upstreamModel)}/${action}`;
}

/** The request's headers with SigV4's `authorization`, `x-amz-date` (and security token) added. */
export async function signedHeaders(
  channel: ChannelConfig,
  credentials: AwsCredentials,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Record<string, string>> {
  const target = new URL(url);
  const signer = new SignatureV4({ service: 'bedrock', region: regionOf(channel), credentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port === '' ? undefined : Number(target.port),
    path: target.pathname,
    query: {},
    headers: { ...headers, host: target.host },
    body,
  });
  // undici writes the same Host itself.
  const { host: _host, ...sent } = signed.headers;
  return sent;
}

/** The request's headers with its `authorization`: the Bedrock API key as a bearer token, or a SigV4 signature. */
export async function authorizedHeaders(channel: ChannelConfig, url: string, headers: Record<string, string>, body: string): Promise<Record<string, string>> {
  const auth = authOf(channel);
  if (auth.kind === 'bearer') return { ...headers, authorization: `Bearer ${auth.token}` };
  return signedHeaders(channel, auth.credentials, url, headers, body);
}

/** POSTs a JSON body to `url`, authorized; resolves with whatever status came back. */
export async function sendSigned(attempt: Attempt, url: string, headers: Record<string, string>, body: string): Promise<UpstreamResponse> {
  const authorized = await authorizedHeaders(attempt.channel, url, headers, body);
  return sendUpstream({ url, headers: authorized, body, signal: attempt.signal, timeoutMs: attempt.channel.timeoutMs });
}

/** POSTs a JSON body to the model's `action`, authorized; resolves with whatever status came back. */
export function postBedrock(attempt: Attempt, action: string, body: string, accept: string): Promise<UpstreamResponse> {
  const headers = { ...attempt.channel.headers, 'content-type': 'application/json', accept };
  return sendSigned(attempt, bedrockModelUrl(attempt, action), headers, body);
}
