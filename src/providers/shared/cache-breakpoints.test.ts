import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { hasCacheBreakpoints } from './cache-breakpoints.js';

const base: ChatRequest = { model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

describe('hasCacheBreakpoints', () => {
  it('finds cache_control on system parts and on message parts, and nothing when there is none', () => {
    expect(hasCacheBreakpoints(base)).toBe(false);
    expect(hasCacheBreakpoints({ ...base, system: [{ type: 'text', text: 's', cacheControl: { type: 'ephemeral' } }] })).toBe(true);
    expect(
      hasCacheBreakpoints({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cacheControl: { type: 'ephemeral', ttl: '1h' } }] }] }),
    ).toBe(true);
  });
});
