import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { authOf } from './bedrock-auth.js';

const channel = (apiKey: string): ChannelConfig => ({ name: 'c', provider: 'bedrock', baseUrl: '', apiKey, headers: {}, timeoutMs: 1000, options: {} });

const LONG_TERM = 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLWF0LTEyMzQ1Njc4OTAxMjpzZWNyZXQ=';
const SHORT_TERM = 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbiZWZXJzaW9uPTE=';

describe('Bedrock channel authentication', () => {
  it('takes a long-term or short-term Bedrock API key as a bearer token', () => {
    expect(authOf(channel(LONG_TERM), {})).toEqual({ kind: 'bearer', token: LONG_TERM });
    expect(authOf(channel(SHORT_TERM), {})).toEqual({ kind: 'bearer', token: SHORT_TERM });
  });

  it('signs with the channel keys, with or without a session token', () => {
    expect(authOf(channel('AK:SK'), {})).toEqual({ kind: 'sigv4', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } });
    expect(authOf(channel('AK:SK:TOKEN'), {})).toEqual({ kind: 'sigv4', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'TOKEN' } });
  });

  it("prefers the channel's own key, SigV4 or API key, over AWS_BEARER_TOKEN_BEDROCK", () => {
    const env = { AWS_BEARER_TOKEN_BEDROCK: SHORT_TERM, AWS_ACCESS_KEY_ID: 'EAK', AWS_SECRET_ACCESS_KEY: 'ESK' };
    expect(authOf(channel('AK:SK'), env)).toMatchObject({ kind: 'sigv4', credentials: { accessKeyId: 'AK' } });
    expect(authOf(channel(LONG_TERM), env)).toEqual({ kind: 'bearer', token: LONG_TERM });
  });

  it('without a channel key, prefers AWS_BEARER_TOKEN_BEDROCK to the AWS keys, as the AWS SDK does', () => {
    const keys = { AWS_ACCESS_KEY_ID: 'EAK', AWS_SECRET_ACCESS_KEY: 'ESK', AWS_SESSION_TOKEN: 'ET' };
    expect(authOf(channel(''), { ...keys, AWS_BEARER_TOKEN_BEDROCK: LONG_TERM })).toEqual({ kind: 'bearer', token: LONG_TERM });
    expect(authOf(channel(''), { ...keys, AWS_BEARER_TOKEN_BEDROCK: '' })).toEqual({
      kind: 'sigv4',
      credentials: { accessKeyId: 'EAK', secretAccessKey: 'ESK', sessionToken: 'ET' },
    });
  });

  it('refuses a key of neither form, and no credentials at all, naming what is accepted', () => {
    expect(() => authOf(channel('not-an-aws-key'), {})).toThrow(/Bedrock API key \(ABSK… or bedrock-api-key-…\), ACCESS_KEY_ID:SECRET_ACCESS_KEY/);
    expect(() => authOf(channel(''), {})).toThrow(/no AWS credentials: set the key, AWS_BEARER_TOKEN_BEDROCK, or AWS_ACCESS_KEY_ID/);
  });
});
