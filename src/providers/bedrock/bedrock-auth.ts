/**
 * How a Bedrock channel authenticates: an Amazon Bedrock API key sent as
 * `Authorization: Bearer <key>`, or AWS keys that sign each request with Signature Version 4.
 *
 * The channel's key (stored sealed like every channel credential) decides first:
 * - a Bedrock API key — long-term keys begin `ABSK`, short-term keys `bedrock-api-key-` — is a
 *   bearer token;
 * - `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` signs with SigV4;
 * - anything else is refused with an error naming both forms.
 * A channel without a key follows the AWS SDK: when `AWS_BEARER_TOKEN_BEDROCK` is set (not
 * empty), the SDK prefers its `httpBearerAuth` scheme and sends that token; otherwise it signs with
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`. A channel's own key always
 * wins over the environment, so SigV4 and API-key channels can sit side by side.
 */
import { GatewayError } from '../../core/errors.js';
import type { ChannelConfig } from '../types.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export type BedrockAuth = { kind: 'bearer'; token: string } | { kind: 'sigv4'; credentials: AwsCredentials };

/** The variable the AWS SDKs read a Bedrock API key from (`AWS_BEARER_TOKEN_<signing name>`). */
export const BEARER_TOKEN_VARIABLE = 'AWS_BEARER_TOKEN_BEDROCK';

const API_KEY = /^(ABSK|bedrock-api-key-)[A-Za-z0-9+/=_.%&-]{8,8000}$/;

export function misconfigured(channel: ChannelConfig, why: string): GatewayError {
  // The channel cannot authenticate: another channel may serve the request.
  return new GatewayError('upstream', `channel ${channel.name}: ${why}`, { retryable: true, errorType: 'upstream.auth' });
}

export function isBedrockApiKey(key: string): boolean {
  return API_KEY.test(key);
}

function keysOf(channel: ChannelConfig, key: string): AwsCredentials {
  const [accessKeyId, secretAccessKey, sessionToken, ...rest] = key.split(':');
  if (!accessKeyId || !secretAccessKey || rest.length > 0) {
    throw misconfigured(
      channel,
      'the key must be a Bedrock API key (ABSK… or bedrock-api-key-…), ACCESS_KEY_ID:SECRET_ACCESS_KEY or ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN',
    );
  }
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

export function authOf(channel: ChannelConfig, env: NodeJS.ProcessEnv = process.env): BedrockAuth {
  const key = channel.apiKey.trim();
  if (key !== '') return isBedrockApiKey(key) ? { kind: 'bearer', token: key } : { kind: 'sigv4', credentials: keysOf(channel, key) };
  const token = env[BEARER_TOKEN_VARIABLE]?.trim();
  if (token) return { kind: 'bearer', token };
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw misconfigured(channel, `no AWS credentials: set the key, ${BEARER_TOKEN_VARIABLE}, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
  }
  return { kind: 'sigv4', credentials: { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } };
}
