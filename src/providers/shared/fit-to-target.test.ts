import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { isGatewayError } from '../../core/errors.js';
import type { Attempt } from '../types.js';
import { fitToTarget, type TargetLimits } from './fit-to-target.js';

const LIMITS: TargetLimits = {
  stop: { upstream: 'OpenAI', max: 4 },
  userMaxLength: 64,
  toolNames: { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ },
  maxTools: 3,
};

function attemptWith(maxOutputTokens?: number): { attempt: Attempt; warnings: string[] } {
  const warnings: string[] = [];
  const attempt = {
    channel: { name: 'c', provider: 'openai', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 1000, options: {} },
    upstreamModel: 'gpt-4o',
    signal: new AbortController().signal,
    requestId: 'r',
    maxOutputTokens,
    warn: (message: string) => warnings.push(message),
  } satisfies Attempt;
  return { attempt, warnings };
}

const base = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'textmodel-b-4o',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  ...extra,
});

describe('fitToTarget', () => {
  it('clamps the output cap to the model’s catalog limit, and says so', () => {
    const { attempt, warnings } = attemptWith(16_384);
    expect(fitToTarget(base({ maxTokens: 32_000 }), attempt, LIMITS).request.maxTokens).toBe(16_384);
    expect(warnings).toEqual(['max_tokens: 32000 is above the output limit of textmodel-b-4o (16384 tokens); sent as 16384']);
  });

  it('keeps a cap within the limit, and any cap when the model has no catalog limit', () => {
    const within = attemptWith(16_384);
    expect(fitToTarget(base({ maxTokens: 1000 }), within.attempt, LIMITS).request.maxTokens).toBe(1000);
    const unlisted = attemptWith(undefined);
    expect(fitToTarget(base({ maxTokens: 32_000 }), unlisted.attempt, LIMITS).request.maxTokens).toBe(32_000);
    expect([...within.warnings, ...unlisted.warnings]).toEqual([]);
  });

  it('sends an over-long user id as the stable u-<base64url SHA-256>, a short one as it is', () => {
    const claudeCodeUser = `user_${'a'.repeat(64)}_account_0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0_session_01234567-89ab-cdef-0123-456789abcdef`;
    const { attempt, warnings } = attemptWith();
    const sent = fitToTarget(base({ user: claudeCodeUser }), attempt, LIMITS).request.user!;
    expect(sent).toBe(`u-${createHash('sha256').update(claudeCodeUser).digest('base64url')}`);
    expect(sent.length).toBeLessThanOrEqual(64);
    expect(fitToTarget(base({ user: claudeCodeUser }), attempt, LIMITS).request.user).toBe(sent);
    expect(warnings[0]).toBe("user: longer than OpenAI's limit of 64 characters; sent as its SHA-256 hash");
    expect(fitToTarget(base({ user: 'alice' }), attempt, LIMITS).request.user).toBe('alice');
  });

  it('refuses more tools than the target accepts, naming it', () => {
    const tools = ['a', 'b', 'c', 'd'].map((name) => ({ name, parameters: {} }));
    const error = (() => {
      try {
        fitToTarget(base({ tools }), attemptWith().attempt, LIMITS);
      } catch (e) {
        return e;
      }
    })();
    expect(isGatewayError(error) && error.kind).toBe('invalid_request');
    expect((error as Error).message).toBe('tools: textmodel-b-4o (OpenAI) accepts at most 3 tools, got 4');
  });

  it('still refuses more stop sequences than the target accepts', () => {
    expect(() => fitToTarget(base({ stop: ['1', '2', '3', '4', '5'] }), attemptWith().attempt, LIMITS)).toThrow('accepts at most 4 stop sequences');
  });

  it('shortens tool names and restores them', () => {
    const long = `mcp__server__${'x'.repeat(80)}`;
    const fitted = fitToTarget(base({ tools: [{ name: long, parameters: {} }] }), attemptWith().attempt, LIMITS);
    const sent = fitted.request.tools![0].name;
    expect(sent).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(fitted.names.restore(sent)).toBe(long);
  });
});
